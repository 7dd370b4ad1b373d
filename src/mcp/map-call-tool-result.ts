import type { CompatibilityCallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js'
import { errorResult, toJsonText } from '../tool/tool-result.js'
import type { ToolResult } from '../tool/types.js'

/**
 * Which server tool produced a result, for its metadata and messages.
 *
 * @example
 * const origin: CallToolOrigin = { server: 'github', tool: 'search_issues' }
 */
export interface CallToolOrigin {
  server: string
  /** The tool's name on the server (not the exposed one). */
  tool: string
}

/**
 * An MCP `tools/call` result as a `ToolResult`: `isError` ⇒ an error with the text parts joined;
 * `structuredContent` ⇒ its JSON text; otherwise the text parts joined with other content (images, audio,
 * resources) summarized in place rather than dropped. The raw content is kept in `metadata`.
 *
 * @example
 * mapCallToolResult(
 *   { content: [{ type: 'text', text: 'hi' }, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] },
 *   { server: 'demo', tool: 'draw' },
 * ).output // 'hi\n[image: image/png, 8 bytes]'
 */
export function mapCallToolResult(result: CompatibilityCallToolResult, origin: CallToolOrigin): ToolResult {
  // Servers of protocol version 2024-10-07 answer with `toolResult` instead of `content`.
  if ('toolResult' in result && !('content' in result)) {
    return {
      output: toJsonText(result.toolResult),
      isError: false,
      metadata: { server: origin.server, tool: origin.tool, raw: result },
    }
  }
  const content: ContentBlock[] = Array.isArray(result.content) ? result.content : []
  // Spelled out rather than spread: `{ ...origin, key }` is a slow path in V8, paid on every call.
  const metadata: Record<string, unknown> = { server: origin.server, tool: origin.tool, content }
  if (result.structuredContent !== undefined) metadata.structuredContent = result.structuredContent
  if (result._meta !== undefined) metadata._meta = result._meta
  const text = content.map(renderContentBlock).join('\n')
  if (result.isError === true) {
    return errorResult(
      text || `MCP tool "${origin.tool}" on server "${origin.server}" reported an error without a message.`,
      metadata,
    )
  }
  if (result.structuredContent !== undefined) {
    return { output: toJsonText(result.structuredContent), isError: false, metadata }
  }
  return { output: text, isError: false, metadata }
}

/** One content block as text the model can read: text as it is, anything else as a one-line summary. */
function renderContentBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text
    case 'image':
      return `[image: ${block.mimeType}, ${base64Bytes(block.data)} bytes]`
    case 'audio':
      return `[audio: ${block.mimeType}, ${base64Bytes(block.data)} bytes]`
    case 'resource_link': {
      const label = [block.name, block.mimeType].filter(Boolean).join(', ')
      return `[resource link: ${block.uri}${label ? ` (${label})` : ''}]`
    }
    case 'resource': {
      const { resource } = block
      if ('text' in resource && typeof resource.text === 'string') {
        return `[resource: ${resource.uri}]\n${resource.text}`
      }
      const bytes = 'blob' in resource && typeof resource.blob === 'string' ? base64Bytes(resource.blob) : 0
      return `[resource: ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ''}, ${bytes} bytes]`
    }
    default:
      return unknownBlock(block)
  }
}

// A content type newer than this SDK still gets a summary rather than vanishing.
function unknownBlock(block: never): string {
  const type = (block as { type?: unknown }).type
  return `[${typeof type === 'string' ? type : 'unknown'} content]`
}

/** The decoded size of base64 text. */
function base64Bytes(data: string): number {
  const compact = data.replace(/\s/g, '')
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0
  return Math.max(0, Math.floor((compact.length * 3) / 4) - padding)
}
