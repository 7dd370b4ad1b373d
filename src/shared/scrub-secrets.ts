import { mayBeCredential } from './secret-names.js'

/**
 * Replaces every known secret in a text with `***`.
 *
 * @example
 * const scrub: SecretScrubber = createSecretScrubber(['s3cr3t-token'])
 */
export type SecretScrubber = (text: string) => string

// Shorter values ("1", "true") are too common to be secrets, and replacing them would garble messages.
const MIN_SECRET_LENGTH = 4
// A fragment of an encoding shorter than this is too likely to occur by chance.
const MIN_ENCODED_FRAGMENT = 8
// Pairs of secrets are tried as HTTP Basic `user:pass` only among this many values.
const MAX_BASIC_PAIRS_OF = 24
const MASK = '***'

const noSecrets: SecretScrubber = (text) => text

/**
 * A scrubber for these secret values. Each is masked wherever it appears, in these forms: as it is,
 * URL-encoded, base64 and base64url (also inside a longer base64 text, at any alignment), and as the
 * HTTP Basic credential `base64(user:pass)` for any two of the values. The longest form is masked first,
 * so a secret containing another is masked whole. A value no credential takes (`true`, `off`, a short
 * number) is not masked. A text that is valid JSON stays valid JSON: secrets are masked inside its
 * strings, and a number holding one becomes the string `"***"`. With no secrets it is the identity, and
 * costs nothing.
 *
 * @example
 * const scrub = createSecretScrubber(['s3cr3t-token'])
 * scrub('401: bad token s3cr3t-token')              // '401: bad token ***'
 * scrub(`echo ${btoa('s3cr3t-token')}`)             // 'echo ***'
 */
export function createSecretScrubber(secrets: Iterable<string>): SecretScrubber {
  const values = [...new Set(secrets)].filter(
    (secret) => typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH && mayBeCredential(secret),
  )
  if (values.length === 0) return noSecrets
  const masked = new Set<string>()
  const add = (form: string, minimum = MIN_SECRET_LENGTH): void => {
    if (form.length >= minimum) masked.add(form)
  }
  for (const secret of values) {
    add(secret)
    add(encodeURIComponent(secret))
    // As it is written inside a JSON string (a quote or backslash escaped).
    add(JSON.stringify(secret).slice(1, -1))
    for (const form of base64Forms(secret)) add(form, MIN_ENCODED_FRAGMENT)
  }
  const paired = values.slice(0, MAX_BASIC_PAIRS_OF)
  for (const user of paired) {
    for (const password of paired) {
      if (user !== password) add(toBase64(`${user}:${password}`), MIN_ENCODED_FRAGMENT)
    }
  }
  const ordered = [...masked].sort((left, right) => right.length - left.length)
  const maskPlain = (text: string): string => {
    let scrubbed = text
    for (const form of ordered) if (scrubbed.includes(form)) scrubbed = scrubbed.split(form).join(MASK)
    return scrubbed
  }
  return (text) => {
    const scrubbed = maskPlain(text)
    if (scrubbed === text || !looksLikeJson(text)) return scrubbed
    return maskInsideJson(text, maskPlain) ?? scrubbed
  }
}

function looksLikeJson(text: string): boolean {
  const first = text.trimStart()[0]
  return first === '{' || first === '[' || first === '"'
}

// A JSON string literal, or a number.
const JSON_TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g

/**
 * `text` masked token by token when it is valid JSON: each string decoded, masked and encoded again, a
 * number holding a secret replaced by the string `"***"`, the rest (structure, spacing, `true`) kept.
 * `undefined` when `text` is not JSON.
 */
function maskInsideJson(text: string, mask: (text: string) => string): string | undefined {
  try {
    JSON.parse(text)
  } catch {
    return undefined
  }
  return text.replace(JSON_TOKEN, (token) => {
    if (token[0] !== '"') return mask(token) === token ? token : JSON.stringify(MASK)
    const value = JSON.parse(token) as string
    const masked = mask(value)
    return masked === value ? token : JSON.stringify(masked)
  })
}

/**
 * A tool result with every secret masked: its output and every string in its metadata (an MCP result's
 * `metadata.content`, `structuredContent`, `raw`), at any depth. Returns `result` itself when nothing
 * changed, and at once when there are no secrets.
 *
 * @example
 * scrubToolResult(createSecretScrubber(['s3cr3t-token']), { output: 'ok s3cr3t-token', isError: false })
 * // { output: 'ok ***', isError: false }
 */
export function scrubToolResult<Result extends ScrubbableResult>(
  scrub: SecretScrubber,
  result: Result,
): Result {
  if (scrub === noSecrets) return result
  const output = scrub(result.output)
  const metadata = result.metadata === undefined ? undefined : scrubValue(scrub, result.metadata, 0)
  if (output === result.output && metadata === result.metadata) return result
  return metadata === undefined
    ? { ...result, output }
    : { ...result, output, metadata: metadata as Record<string, unknown> }
}

/** The parts of a tool result that can hold a secret (so that shared/ needs nothing of tool/). */
interface ScrubbableResult {
  output: string
  metadata?: Record<string, unknown>
}

// Metadata deeper than this is not walked; it is replaced by a note rather than kept unchecked.
const MAX_SCRUB_DEPTH = 64

/**
 * Any JSON-like value with every string in it (keys too) masked; the value itself when nothing changed.
 *
 * @example
 * scrubValue(createSecretScrubber(['s3cr3t-token']), { text: 's3cr3t-token' }, 0) // { text: '***' }
 */
function scrubValue(scrub: SecretScrubber, value: unknown, depth: number): unknown {
  if (typeof value === 'string') return scrub(value)
  if (typeof value !== 'object' || value === null) return value
  if (depth >= MAX_SCRUB_DEPTH) return '[nested too deeply to check for secrets]'
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    for (let index = 0; index < value.length; index++) {
      const scrubbed = scrubValue(scrub, value[index], depth + 1)
      if (scrubbed !== value[index]) {
        copy ??= value.slice()
        copy[index] = scrubbed
      }
    }
    return copy ?? value
  }
  // Binary data (media bytes) holds no text to mask.
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value
  let copy: Record<string, unknown> | undefined
  const entries = Object.entries(value)
  for (const [key, child] of entries) {
    const scrubbedKey = scrub(key)
    const scrubbed = scrubValue(scrub, child, depth + 1)
    if (scrubbed === child && scrubbedKey === key) continue
    if (copy === undefined) {
      copy = {}
      for (const [name, original] of entries) define(copy, name, original)
    }
    if (scrubbedKey !== key) delete copy[key]
    define(copy, scrubbedKey, scrubbed)
  }
  return copy ?? value
}

// A data property even for `__proto__`.
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

/**
 * The values worth masking in a header or environment value: the whole value, each word of it long
 * enough to be a credential (the token in `Bearer <token>` may be echoed on its own), and for an HTTP
 * Basic credential the decoded `user:pass` and the password.
 *
 * @example
 * secretPartsOf('Bearer abcdefgh12345') // ['Bearer abcdefgh12345', 'abcdefgh12345']
 * secretPartsOf('Basic dXNlcjpwYXNzd29yZA==') // [..., 'user:password', 'password']
 */
export function secretPartsOf(value: string): string[] {
  const words = value.split(/\s+/).filter((word) => word.length >= 8 && word !== value)
  const parts = [value, ...words]
  const basic = /^basic\s+([A-Za-z0-9+/=_-]+)$/i.exec(value.trim())?.[1]
  const decoded = basic === undefined ? undefined : fromBase64(basic)
  if (decoded?.includes(':')) {
    parts.push(decoded)
    const password = decoded.slice(decoded.indexOf(':') + 1)
    if (password.length >= MIN_SECRET_LENGTH) parts.push(password)
  }
  return parts
}

// The base64 texts that can only come from `secret`: its whole encoding, and for each of the three
// alignments inside a longer encoded text, the characters that depend on the secret's bytes alone.
function base64Forms(secret: string): string[] {
  const forms: string[] = []
  const bytes = utf8(secret)
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length)
    padded.set(bytes, offset)
    const encoded = bytesToBase64(padded)
    if (offset === 0) forms.push(encoded, encoded.replace(/=+$/, ''))
    const start = offset === 0 ? 0 : 4
    const tail = (offset + bytes.length) % 3 === 0 ? 0 : 4
    const core = encoded.slice(start, encoded.length - tail)
    forms.push(core)
  }
  const urlSafe = forms.map((form) => form.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, ''))
  return [...forms, ...urlSafe]
}

function toBase64(text: string): string {
  return bytesToBase64(utf8(text))
}

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text)
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

function fromBase64(text: string): string | undefined {
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'))
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0))
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
}
