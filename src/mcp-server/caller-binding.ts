// A request state a served toolkit hands out (an approval question, a forwarded round of input) is bound
// to the caller it was handed to: it carries a tag, an HMAC under the handler's key of that caller's
// identity (never the identity itself), and a retry from any other caller is refused before anything
// runs. The tag rides inside the sealed payload, so a client can neither forge it nor move it.
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'

/**
 * What the server's request-state hook hands on for a state sealed by this handler for another caller:
 * nothing of the state itself, only that it is someone else's. Every reader of a state refuses it.
 */
export const FOREIGN_STATE: { readonly kind: 'foreign' } = Object.freeze({ kind: 'foreign' })

// Keeps a caller tag apart from every other HMAC made under the same key.
const TAG_LABEL = 'toolnexus.request-state.caller\u0000'

/**
 * Makes the caller tags of one handler's key: `tag(caller)` is a base64url HMAC-SHA256 of the caller's
 * identity (its first 16 bytes), `matches(tag, caller)` compares one in constant time.
 *
 * @example
 * const tags = callerTags(hmacKey)
 * const tag = await tags.tag('caller:alice')
 * await tags.matches(tag, 'caller:bob') // false
 */
export function callerTags(key: Promise<CryptoKey>): {
  tag(caller: string): Promise<string>
  matches(tag: unknown, caller: string): Promise<boolean>
} {
  const tag = async (caller: string): Promise<string> => {
    const mac = await crypto.subtle.sign('HMAC', await key, new TextEncoder().encode(TAG_LABEL + caller))
    // 128 bits: as many as the SDK's own binding tag, and short enough to leave a state its room.
    let binary = ''
    for (const byte of new Uint8Array(mac).slice(0, 16)) binary += String.fromCharCode(byte)
    return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
  }
  return {
    tag,
    async matches(given, caller) {
      if (typeof given !== 'string') return false
      const expected = await tag(caller)
      if (given.length !== expected.length) return false
      let diff = 0
      for (let i = 0; i < expected.length; i++) diff |= given.charCodeAt(i) ^ expected.charCodeAt(i)
      return diff === 0
    },
  }
}

/**
 * Imports a handler's request-state key (a random one when absent) for HMAC-SHA256.
 *
 * @example
 * const hmacKey = importStateKey(process.env.MCP_STATE_KEY)
 */
export function importStateKey(key: string | Uint8Array | undefined): {
  raw: Uint8Array
  hmac: Promise<CryptoKey>
} {
  const raw =
    typeof key === 'string'
      ? new TextEncoder().encode(key)
      : (key ?? crypto.getRandomValues(new Uint8Array(32)))
  const hmac = crypto.subtle.importKey(
    'raw',
    raw as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  )
  return { raw, hmac }
}

/**
 * Refuses a retry that carries a state sealed for another caller (invalid params): nothing of it runs.
 *
 * @example
 * refuseForeignState(ctx.mcpReq.requestState()) // throws for another caller's state
 */
export function refuseForeignState(state: unknown): void {
  if (state !== FOREIGN_STATE) return
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    'This requestState was issued to another caller: only the caller it was handed to may answer it. The call was not run.',
    { reason: 'foreign_request_state' },
  )
}
