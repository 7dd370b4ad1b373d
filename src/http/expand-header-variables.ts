/** `${NAME}` in a header value: an environment variable read when the tool is called. */
export const HEADER_VARIABLE_PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g

/**
 * The header values with every `${NAME}` filled and the values that went in (secrets, to mask wherever
 * they might be echoed), or the first variable that is not set.
 */
export type ExpandedHeaders =
  | { kind: 'expanded'; headers: Array<[name: string, value: string]>; secrets: string[] }
  | { kind: 'missing'; header: string; variable: string }
  | { kind: 'invalid'; header: string; variable: string }

// Characters a header value cannot hold; a variable holding one would be refused by `fetch` with an error
// that quotes the value, and the value is likely a secret.
const FORBIDDEN_IN_HEADER = /[\r\n\0]/

/**
 * Fills `${NAME}` in each header value from the environment. A variable that is unset or empty stops
 * the expansion and is named in the result; its value (likely a secret) is never part of any message.
 *
 * @example
 * expandHeaderVariables([['authorization', 'Bearer ${API_TOKEN}']], { API_TOKEN: 't0k3n' })
 * // { kind: 'expanded', headers: [['authorization', 'Bearer t0k3n']], secrets: ['t0k3n'] }
 */
export function expandHeaderVariables(
  headers: ReadonlyArray<readonly [name: string, template: string]>,
  environment: Readonly<Record<string, string | undefined>>,
): ExpandedHeaders {
  const expanded: Array<[string, string]> = []
  const secrets: string[] = []
  for (const [header, template] of headers) {
    let problem: { kind: 'missing' | 'invalid'; variable: string } | undefined
    const value = template.replace(HEADER_VARIABLE_PATTERN, (whole, variable: string) => {
      const found = environment[variable]
      if (found === undefined || found === '') problem ??= { kind: 'missing', variable }
      else if (FORBIDDEN_IN_HEADER.test(found)) problem ??= { kind: 'invalid', variable }
      else secrets.push(found)
      return found ?? whole
    })
    if (problem !== undefined) return { ...problem, header }
    expanded.push([header, value])
  }
  return { kind: 'expanded', headers: expanded, secrets }
}

/** The process environment where there is one (Node, Bun, Deno's `process`), else nothing. */
export function processEnvironment(): Readonly<Record<string, string | undefined>> {
  // Edge runtimes have no `process`; reading it through globalThis keeps this module importable there.
  const candidate: { env?: Record<string, string | undefined> } | undefined = (
    globalThis as { process?: { env?: Record<string, string | undefined> } }
  ).process
  return candidate?.env ?? {}
}
