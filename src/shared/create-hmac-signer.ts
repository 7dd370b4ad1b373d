// HMAC-SHA256 over Web Crypto (`globalThis.crypto.subtle`): the same code signs on Node 20+, on the
// Next.js edge runtime, in Workers and in Deno, with no Node built-in.

/**
 * Signs texts with one secret and checks signatures made with it. Every signature is bound to a
 * `purpose`, so a text signed for one use (a chat answer) is never accepted for another (a run's state).
 *
 * @example
 * const signer = createHmacSigner({ secret: process.env.CHAT_SECRET })
 * const signature = await signer.sign('chat-answer', text)
 * await signer.verify('chat-answer', text, signature) // true
 */
export interface Signer {
  /** The signature of `text` for `purpose`: base64url, 43 characters. */
  sign(purpose: string, text: string): Promise<string>
  /** True when `signature` is what `sign(purpose, text)` gives; compared in constant time. */
  verify(purpose: string, text: string, signature: string): Promise<boolean>
}

/** The shortest secret accepted: 32 characters, as `openssl rand -base64 32` prints 44. */
export const MIN_SECRET_LENGTH = 32

const encoder = new TextEncoder()

/**
 * Makes a `Signer` from a secret text, or from random bytes made once when none is given.
 *
 * @param options.secret At least 32 characters. Omitted: 32 random bytes from `crypto.getRandomValues`.
 * @example
 * const signer = createHmacSigner({ secret: 'a long random text from the environment, 32+ characters' })
 */
export function createHmacSigner(options: { secret?: string | undefined } = {}): Signer {
  const raw =
    options.secret === undefined
      ? globalThis.crypto.getRandomValues(new Uint8Array(32))
      : encoder.encode(options.secret)
  const key = globalThis.crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ])
  // Surfaced on first use; unobserved here it would be an unhandled rejection.
  key.catch(() => {})
  return {
    async sign(purpose, text) {
      const signature = await globalThis.crypto.subtle.sign('HMAC', await key, signed(purpose, text))
      return toBase64Url(new Uint8Array(signature))
    },
    async verify(purpose, text, signature) {
      const bytes = fromBase64Url(signature)
      if (bytes === undefined) return false
      return globalThis.crypto.subtle.verify('HMAC', await key, bytes, signed(purpose, text))
    },
  }
}

/** The bytes signed: the purpose, a newline (never part of a purpose), the text. */
function signed(purpose: string, text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(`${purpose}\n${text}`)
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  // An HMAC-SHA256 signature is 32 bytes: 43 base64url characters, nothing else is one of ours.
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return undefined
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'))
  const bytes = new Uint8Array(binary.length)
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
  return bytes
}
