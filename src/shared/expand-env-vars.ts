/**
 * What expanding one config value produced: the text and the values it took in (each with the variable
 * it came from), or why it could not.
 *
 * @example
 * const expansion: EnvExpansion = { kind: 'missing', variable: 'GITHUB_TOKEN' }
 */
export type EnvExpansion =
  | { kind: 'expanded'; value: string; substituted: Array<{ variable: string; value: string }> }
  | { kind: 'missing'; variable: string }
  | { kind: 'unsupported'; placeholder: string }

const PLACEHOLDER = /\$\{([^}]*)\}/g
const VARIABLE = /^(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s

/**
 * Expands `${VAR}` (also VS Code's `${env:VAR}` and the shell's `${VAR:-default}`) from `env`. A variable
 * that is not set, with no default, is reported by name; the value is never part of what is reported.
 *
 * @example
 * expandEnvVars('Bearer ${TOKEN}', { TOKEN: 'abc' })
 * // { kind: 'expanded', value: 'Bearer abc', substituted: [{ variable: 'TOKEN', value: 'abc' }] }
 * expandEnvVars('${NOPE}', {})                       // { kind: 'missing', variable: 'NOPE' }
 */
export function expandEnvVars(text: string, env: Readonly<Record<string, string | undefined>>): EnvExpansion {
  const substituted: Array<{ variable: string; value: string }> = []
  let failure: EnvExpansion | undefined
  const value = text.replace(PLACEHOLDER, (placeholder, inner: string) => {
    if (failure !== undefined) return placeholder
    const match = VARIABLE.exec(inner)
    const variable = match?.[1]
    if (match === null || variable === undefined) {
      failure = { kind: 'unsupported', placeholder }
      return placeholder
    }
    const fallback = match[2]
    const found = env[variable]
    // Like the shell, `:-` also replaces an empty value.
    const resolved = fallback !== undefined && (found === undefined || found === '') ? fallback : found
    if (resolved === undefined) {
      failure = { kind: 'missing', variable }
      return placeholder
    }
    substituted.push({ variable, value: resolved })
    return resolved
  })
  return failure ?? { kind: 'expanded', value, substituted }
}
