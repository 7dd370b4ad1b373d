// The values of one server entry of an `mcp.json`, read and checked field by field, with `${VAR}` expanded
// and every secret that went in recorded. A bad field throws an `EntryProblem` that names the field, never
// its value.
import { expandEnvVars } from '../shared/expand-env-vars.js'
import { isRecord } from '../shared/is-record.js'
import { secretPartsOf } from '../shared/scrub-secrets.js'
import { headerIsSecret, type SecretNames } from '../shared/secret-names.js'
import type { ParseMcpConfigOptions } from './mcp-server-plan.js'

/** A field of one server entry that has to change; the message names the field, never its value. */
export class EntryProblem extends Error {}

export interface EntryContext extends ParseMcpConfigOptions {
  /** The entry's path in the config, such as `mcpServers.github`. */
  path: string
  /** Which variables hold secrets. */
  names: SecretNames
}

/**
 * Every header value expanded; each is a secret (a literal token needs no `${VAR}`) but those that only
 * describe the request (`Accept`, `Content-Type`).
 */
export function expandEntryHeaders(
  map: Record<string, string>,
  context: EntryContext,
  secrets: string[],
): Record<string, string> {
  const expanded = Object.entries(map).map(([key, raw]) => {
    const value = expandEntryValue(raw, `headers.${key}`, context, secrets, true)
    if (headerIsSecret(key)) secrets.push(...secretPartsOf(value))
    return [key, value] as const
  })
  // fromEntries defines own properties, so a key such as "__proto__" is kept as a key.
  return Object.fromEntries(expanded)
}

/**
 * Every `env` value expanded; a value is a secret when its variable's name marks one (`API_TOKEN`) or the
 * toolkit lists it, and never otherwise (`READ_ONLY`, `LOG_LEVEL`, a base directory stay as they are).
 */
export function expandEntryEnv(
  map: Record<string, string>,
  context: EntryContext,
  secrets: string[],
): Record<string, string> {
  const expanded = Object.entries(map).map(([key, raw]) => {
    const value = expandEntryValue(raw, `env.${key}`, context, secrets, false)
    if (context.names.marks(key)) secrets.push(...secretPartsOf(value))
    return [key, value] as const
  })
  return Object.fromEntries(expanded)
}

/** A URL's password, and its query values whose names mark a secret (`?api_key=…`). */
export function urlSecrets(url: URL, names: SecretNames): string[] {
  const found: string[] = []
  if (url.password !== '') found.push(url.password, decodeURIComponent(url.password))
  for (const [name, value] of url.searchParams) if (names.marks(name)) found.push(value)
  return found
}

/**
 * `${VAR}` expanded. What went in is a secret when it went into a header or a URL (`always`), or when
 * its variable's name marks one.
 */
export function expandEntryValue(
  raw: string,
  field: string,
  context: EntryContext,
  secrets: string[],
  always = false,
): string {
  const expansion = expandEnvVars(raw, context.env)
  switch (expansion.kind) {
    case 'expanded':
      for (const { variable, value } of expansion.substituted) {
        if (always || context.names.marks(variable)) secrets.push(...secretPartsOf(value))
      }
      return expansion.value
    case 'missing':
      throw new EntryProblem(
        `environment variable "${expansion.variable}" is not set (used in "${field}"); set it, ` +
          `or give a default with \${${expansion.variable}:-default}`,
      )
    case 'unsupported':
      throw new EntryProblem(
        `"${field}" uses ${expansion.placeholder}, which cannot be expanded: only \${VAR}, \${env:VAR} and ` +
          `\${VAR:-default} are supported`,
      )
    default:
      return expansion satisfies never
  }
}

export function parseUrl(text: string): URL {
  let url: URL | undefined
  try {
    url = new URL(text)
  } catch {
    url = undefined
  }
  // The URL itself is not shown: it may carry a key in its query.
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new EntryProblem(`"url" must be an absolute http:// or https:// URL`)
  }
  return url
}

export function stringMap(entry: Record<string, unknown>, key: string): Record<string, string> {
  const raw = entry[key]
  if (raw === undefined) return {}
  if (!isRecord(raw))
    throw new EntryProblem(`"${key}" must be an object of string values; got ${describeValue(raw)}`)
  const entries = Object.entries(raw).map(([name, value]) => {
    // Numbers and booleans are what people write for ports and flags; the process sees them as text anyway.
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      return [name, String(value)] as const
    }
    throw new EntryProblem(`"${key}.${name}" must be a string; got ${describeValue(value)}`)
  })
  return Object.fromEntries(entries)
}

export function stringList(raw: unknown, key: string): string[] {
  if (!Array.isArray(raw))
    throw new EntryProblem(`"${key}" must be an array of strings; got ${describeValue(raw)}`)
  return raw.map((item, index) => {
    if (typeof item === 'string') return item
    if (typeof item === 'number' || typeof item === 'boolean') return String(item)
    throw new EntryProblem(`"${key}[${index}]" must be a string; got ${describeValue(item)}`)
  })
}

export function optionalString(entry: Record<string, unknown>, key: string): string | undefined {
  const raw = entry[key]
  if (raw === undefined || typeof raw === 'string') return raw
  throw new EntryProblem(`"${key}" must be a string; got ${describeValue(raw)}`)
}

export function optionalBoolean(entry: Record<string, unknown>, key: string): boolean | undefined {
  const raw = entry[key]
  if (raw === undefined || typeof raw === 'boolean') return raw
  throw new EntryProblem(`"${key}" must be true or false; got ${describeValue(raw)}`)
}

/** The kind of a value, for messages: never a string's text, which may be a secret. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'nothing'
  if (Array.isArray(value)) return 'an array'
  switch (typeof value) {
    case 'object':
      return 'an object'
    case 'string':
      return value === '' ? 'an empty string' : 'a string'
    case 'number':
    case 'boolean':
      return `${typeof value} ${String(value)}`
    default:
      return `a ${typeof value}`
  }
}
