/**
 * Replaces every known secret in a text with `***`.
 *
 * @example
 * const scrub: SecretScrubber = createSecretScrubber(['s3cr3t-token'])
 */
export type SecretScrubber = (text: string) => string

// Shorter values ("1", "true") are too common to be secrets, and replacing them would garble messages.
const MIN_SECRET_LENGTH = 4
const MASK = '***'

/**
 * A scrubber for these secret values: each, and its URL-encoded form, is masked wherever it appears, the
 * longest first so that a secret containing another is masked whole.
 *
 * @example
 * const scrub = createSecretScrubber(['s3cr3t-token'])
 * scrub('401: bad token s3cr3t-token') // '401: bad token ***'
 */
export function createSecretScrubber(secrets: Iterable<string>): SecretScrubber {
  const masked = new Set<string>()
  for (const secret of secrets) {
    for (const form of [secret, encodeURIComponent(secret)]) {
      if (form.length >= MIN_SECRET_LENGTH) masked.add(form)
    }
  }
  const ordered = [...masked].sort((left, right) => right.length - left.length)
  if (ordered.length === 0) return (text) => text
  return (text) => ordered.reduce((scrubbed, secret) => scrubbed.split(secret).join(MASK), text)
}

/**
 * The values worth masking in a header or environment value: the whole value, and each word of it long
 * enough to be a credential (the token in `Bearer <token>` may be echoed on its own).
 *
 * @example
 * secretPartsOf('Bearer abcdefgh12345') // ['Bearer abcdefgh12345', 'abcdefgh12345']
 */
export function secretPartsOf(value: string): string[] {
  const words = value.split(/\s+/).filter((word) => word.length >= 8 && word !== value)
  return [value, ...words]
}
