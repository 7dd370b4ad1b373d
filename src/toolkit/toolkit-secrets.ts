import { processEnvironment } from '../http/expand-header-variables.js'
import { createSecretScrubber, type SecretScrubber, secretPartsOf } from '../shared/scrub-secrets.js'
import { toolSecretsOf } from '../shared/tool-secrets.js'
import type { Tool } from '../tool/types.js'

// Kept beside the toolkit rather than on its public interface: only toolnexus's own telemetry asks.
const secretsByToolkit = new WeakMap<object, () => readonly string[]>()
// The last scrubber made for a toolkit, reused while its secrets stay the same.
const scrubbers = new WeakMap<object, { key: string; scrub: SecretScrubber }>()

/**
 * Records where a toolkit's secrets come from: its MCP servers (secret env values, header values,
 * expanded variables, OAuth client secrets and tokens), the configured secrets of its tools however they
 * came in (an `httpTool()` in `tools` as much as one from `http`), and the environment values of the
 * variables named in its `secrets` option.
 *
 * @example
 * registerToolkitSecrets(toolkit, { mcp: () => source.secrets(), tools: () => toolkit.tools(), names: [] })
 */
export function registerToolkitSecrets(
  toolkit: object,
  sources: { mcp: () => readonly string[]; tools: () => readonly Tool[]; names: readonly string[] },
): void {
  const { mcp, tools, names } = sources
  secretsByToolkit.set(toolkit, () => {
    // Read on every call, as HTTP tools read their variables: a rotated token is masked too.
    const environment = processEnvironment()
    const named: string[] = []
    for (const name of names) {
      const value = environment[name]
      if (value !== undefined && value !== '') named.push(...secretPartsOf(value))
    }
    return [...mcp(), ...tools().flatMap(toolSecretsOf), ...named]
  })
}

/**
 * A scrubber masking every secret the toolkit knows now (nothing to mask for a toolkit made elsewhere, or
 * none at all).
 *
 * @example
 * const scrub = toolkitSecretScrubber(toolkit)
 * span.setAttribute('gen_ai.tool.call.result', scrub(result.output))
 */
export function toolkitSecretScrubber(toolkit: object | undefined): SecretScrubber {
  const secrets = toolkit === undefined ? undefined : secretsByToolkit.get(toolkit)?.()
  if (toolkit === undefined || secrets === undefined) return createSecretScrubber([])
  const key = secrets.join('\0')
  const cached = scrubbers.get(toolkit)
  if (cached?.key === key) return cached.scrub
  const scrub = createSecretScrubber(secrets)
  scrubbers.set(toolkit, { key, scrub })
  return scrub
}
