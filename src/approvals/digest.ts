// SHA-256 and HMAC-SHA-256 through Web Crypto: the same code on Node, edge runtimes and browsers.

const encoder = new TextEncoder()

/**
 * The base64url SHA-256 of `text`, or its HMAC-SHA-256 under `secret` when one is given.
 *
 * @example
 * await digest({ text: 'hello' })                    // 'LPJNul-wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ'
 * await digest({ text: 'hello', secret: 's3cret' })  // an HMAC only holders of the secret can make
 */
export async function digest(options: { text: string; secret?: string | undefined }): Promise<string> {
  const { text, secret } = options
  const data = encoder.encode(text)
  if (secret === undefined) return toBase64Url(await crypto.subtle.digest('SHA-256', data))
  const key = await hmacKey(secret)
  return toBase64Url(await crypto.subtle.sign('HMAC', key, data))
}

/**
 * Compares two digests in time independent of where they differ, so a forger learns nothing from timing.
 *
 * @example
 * sameDigest(await digest({ text }), given) // true when they match
 */
export function sameDigest(expected: string, given: string): boolean {
  if (expected.length !== given.length) return false
  let difference = 0
  for (let index = 0; index < expected.length; index++) {
    difference |= expected.charCodeAt(index) ^ given.charCodeAt(index)
  }
  return difference === 0
}

// One imported key per secret: a client signs with one secret for its whole life.
const keys = new Map<string, Promise<CryptoKey>>()

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret)
  if (key === undefined) {
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ])
    if (keys.size >= 16) keys.clear()
    keys.set(secret, key)
  }
  return key
}

function toBase64Url(buffer: ArrayBuffer): string {
  let binary = ''
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte)
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}
