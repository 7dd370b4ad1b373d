import { ConfigError } from '../errors.js'
import { isRecord } from '../shared/is-record.js'

/**
 * Checks `createToolkit`'s `tools` before anything starts: an array of `Tool`s. AI SDK tools — an object
 * keyed by name (`{ weather: tool({...}) }`), or one of them in the array — are refused with the way to
 * bring them in, `fromAISDK`: a `Tool` carries its name and answers with a `ToolResult`, an AI SDK tool
 * does neither, so taking one as it is would guess at both.
 *
 * @throws {ConfigError} when `tools` is not an array, or holds an AI SDK tool.
 * @example
 * checkToolsOption([weather]) // fine
 * checkToolsOption({ weather }) // ConfigError: … tools: await fromAISDK({ weather }) …
 */
export function checkToolsOption(tools: unknown): void {
  if (tools === undefined || Array.isArray(tools)) {
    for (const [index, tool] of (tools ?? []).entries()) {
      if (isRecord(tool) && typeof tool.name !== 'string' && looksLikeAISDKTool(tool)) {
        throw new ConfigError(
          `tools[${index}] is an AI SDK tool (it has no name): bring AI SDK tools in with fromAISDK, keyed by name: tools: await fromAISDK({ weather }).`,
          { field: `tools[${index}]` },
        )
      }
    }
    return
  }
  const values = isRecord(tools) ? Object.entries(tools) : []
  const aiSdk = values.length > 0 && values.every(([, value]) => isRecord(value) && looksLikeAISDKTool(value))
  const example = values[0]?.[0] ?? 'weather'
  throw new ConfigError(
    aiSdk
      ? `tools is an object of AI SDK tools; createToolkit takes an array of Tool. Convert them with fromAISDK: tools: await fromAISDK({ ${example} }) (import { fromAISDK } from 'toolnexus').`
      : `tools must be an array of Tool (from defineTool, httpTool or fromAISDK), got ${tools === null ? 'null' : typeof tools}.`,
    { field: 'tools' },
  )
}

// `tool({...})` of ai 4 to 7: a schema under `inputSchema` (or `parameters`), usually an `execute`; or a
// provider-defined tool (`type: 'provider'`).
function looksLikeAISDKTool(value: Record<string, unknown>): boolean {
  return (
    typeof value.execute === 'function' ||
    'inputSchema' in value ||
    'parameters' in value ||
    value.type === 'provider' ||
    value.type === 'provider-defined'
  )
}
