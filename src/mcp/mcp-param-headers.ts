import { isRecord } from '../shared/is-record.js'

/**
 * One tool parameter that the tool's input schema marks with `x-mcp-header`: where its value sits in the
 * call's arguments (a chain of property names), the header it is mirrored into (`Mcp-Param-<name>`), and
 * the JSON Schema type the schema gives it.
 */
export interface ParamHeader {
  path: readonly string[]
  header: string
  type: string | undefined
}

/** The longest `Mcp-Param-*` value sent or accepted, in bytes (after encoding). */
export const MAX_PARAM_HEADER_BYTES = 4096

// Schemas come from servers and tool authors: walked no deeper than this.
const MAX_DEPTH = 32
const SENTINEL_PREFIX = '=?base64?'
const SENTINEL_SUFFIX = '?='
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/**
 * The parameters a tool's input schema mirrors into headers: each property reached from the root through
 * `properties` alone whose schema names a header in `x-mcp-header`. Nothing for a schema without any.
 *
 * @example
 * paramHeaders({ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } })
 * // [{ path: ['region'], header: 'Region', type: 'string' }]
 */
export function paramHeaders(schema: unknown): ParamHeader[] {
  const found: ParamHeader[] = []
  const visit = (node: unknown, path: string[]): void => {
    if (!isRecord(node) || path.length > MAX_DEPTH) return
    const header = node['x-mcp-header']
    if (path.length > 0 && typeof header === 'string' && header !== '') {
      found.push({ path, header, type: typeof node.type === 'string' ? node.type : undefined })
    }
    if (isRecord(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) visit(child, [...path, key])
    }
  }
  visit(schema, [])
  return found
}

/** The value at a parameter's path in the arguments; `undefined` where there is none. */
export function valueAt(args: unknown, path: readonly string[]): unknown {
  let node = args
  for (const key of path) {
    if (!isRecord(node)) return undefined
    node = node[key]
  }
  return node
}

/**
 * A parameter value as header text: a string as it is, an integer in decimal, a boolean as `true` or
 * `false`. `undefined` for anything a header cannot carry (an object, a fraction, an integer past 2^53).
 *
 * @example
 * paramText(42) // '42'
 */
export function paramText(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value)
  return undefined
}

/**
 * Header text as it goes on the wire: plain when it is visible ASCII (spaces and tabs inside), else (and
 * when it looks like the sentinel itself) the UTF-8 bytes in Base64 between `=?base64?` and `?=`.
 *
 * @example
 * encodeParamText('Hello, 世界') // '=?base64?SGVsbG8sIOS4lueVjA==?='
 */
export function encodeParamText(text: string): string {
  return isPlain(text) && !isSentinel(text) ? text : `${SENTINEL_PREFIX}${toBase64(text)}${SENTINEL_SUFFIX}`
}

/**
 * A received header value as text: a sentinel's Base64 decoded (canonical Base64 of valid UTF-8 only),
 * a plain value as it is when every character may stand in a header. `undefined` for anything else.
 *
 * @example
 * decodeParamText('=?base64?SGVsbG8=?=') // 'Hello'
 */
export function decodeParamText(value: string): string | undefined {
  if (!isSentinel(value)) return isPlain(value) || value === '' ? value : undefined
  const encoded = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length)
  if (!CANONICAL_BASE64.test(encoded)) return undefined
  try {
    const bytes = Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0))
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
}

function isSentinel(text: string): boolean {
  return text.startsWith(SENTINEL_PREFIX) && text.endsWith(SENTINEL_SUFFIX)
}

/** Visible ASCII, spaces and tabs, with no whitespace at either end (a header parser would strip it). */
function isPlain(text: string): boolean {
  if (text === '' || text.trim() !== text) return false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code !== 9 && (code < 0x20 || code > 0x7e)) return false
  }
  return true
}

function toBase64(text: string): string {
  let binary = ''
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte)
  return btoa(binary)
}
