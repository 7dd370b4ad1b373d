// Parts of a variable's name that say its value is a credential (`GITHUB_TOKEN`, `PGPASSWORD`, `apiKey`).
const SECRET_NAME = /key|token|secret|password|pass|pwd|auth|credential|cookie|session|private/i
// Values no credential takes: masking them would garble every text that says "true" or "8080".
const PLAIN_VALUE = /^(?:true|false|yes|no|on|off|null|none|\d{1,7})$/i

/**
 * Which environment variables hold secrets: those whose names mark one (key, token, secret, password,
 * pass, pwd, auth, credential, cookie, session, private, in any case and anywhere in the name) and those
 * named in `listed` (the toolkit's `secrets`).
 *
 * @example
 * const names = secretNames(['DATABASE_URL'])
 * names.marks('GITHUB_TOKEN') // true
 * names.marks('READ_ONLY')    // false
 * names.marks('DATABASE_URL') // true
 */
export interface SecretNames {
  /** Whether the variable `name` holds a secret. */
  marks(name: string): boolean
}

/**
 * The rule for `listed` besides the names that mark a secret.
 *
 * @example
 * secretNames([]).marks('LOG_LEVEL') // false
 */
export function secretNames(listed: Iterable<string> = []): SecretNames {
  const named = new Set(listed)
  return { marks: (name) => named.has(name) || SECRET_NAME.test(name) }
}

/**
 * Whether a value taken because of its variable's name could be a credential at all: a flag (`true`,
 * `off`) or a short number (a port, a timeout) cannot, and is never masked.
 *
 * @example
 * mayBeCredential('true')      // false
 * mayBeCredential('ghp_abc123') // true
 */
export function mayBeCredential(value: string): boolean {
  return !PLAIN_VALUE.test(value.trim())
}

// Headers that describe the request rather than authenticate it: their values are never secrets.
const PUBLIC_HEADERS = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'content-type',
  'mcp-protocol-version',
  'user-agent',
])

/**
 * Whether a configured header's value is a secret: every header's is, but those that only describe the
 * request (`Accept`, `Content-Type`, `User-Agent`, …).
 *
 * @example
 * headerIsSecret('Authorization') // true
 * headerIsSecret('Accept')        // false
 */
export function headerIsSecret(name: string): boolean {
  return !PUBLIC_HEADERS.has(name.trim().toLowerCase())
}
