import { HEADER_VARIABLE_PATTERN, processEnvironment } from '../http/expand-header-variables.js'
import type { HttpToolSpec } from '../http/http-tool-spec.js'
import { createSecretScrubber, type SecretScrubber, secretPartsOf } from '../shared/scrub-secrets.js'

// Kept beside the toolkit rather than on its public interface: only toolnexus's own telemetry asks.
const secretsByToolkit = new WeakMap<object, () => Iterable<string>>()

/**
 * Records where a toolkit's configured secrets come from: its MCP servers' `env`, `headers` and expanded
 * variables, and the environment values its HTTP tools' `${VAR}` headers read.
 *
 * @example
 * registerToolkitSecrets(toolkit, { mcp: source.secrets, http: options.http ?? [] })
 */
export function registerToolkitSecrets(
  toolkit: object,
  sources: { mcp: readonly string[]; http: readonly HttpToolSpec[] },
): void {
  const { mcp, http } = sources
  const variables = new Set<string>()
  for (const spec of http) {
    for (const template of Object.values(spec.headers ?? {})) {
      if (typeof template !== 'string') continue
      for (const match of template.matchAll(HEADER_VARIABLE_PATTERN)) variables.add(match[1] as string)
    }
  }
  secretsByToolkit.set(toolkit, () => {
    // HTTP tools read their variables on every call; so does this, so a rotated token is masked too.
    const environment = processEnvironment()
    const fromEnvironment: string[] = []
    for (const variable of variables) {
      const value = environment[variable]
      if (value !== undefined && value !== '') fromEnvironment.push(...secretPartsOf(value))
    }
    return [...mcp, ...fromEnvironment]
  })
}

/**
 * A scrubber masking every secret the toolkit was configured with (nothing to mask for a toolkit made
 * elsewhere, or none at all).
 *
 * @example
 * const scrub = toolkitSecretScrubber(toolkit)
 * span.setAttribute('gen_ai.tool.call.result', scrub(result.output))
 */
export function toolkitSecretScrubber(toolkit: object | undefined): SecretScrubber {
  const secrets = toolkit === undefined ? undefined : secretsByToolkit.get(toolkit)
  return createSecretScrubber(secrets?.() ?? [])
}
