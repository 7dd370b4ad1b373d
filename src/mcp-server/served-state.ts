// The request state a gateway hands its 2026-07-28 caller when a source server behind it asks for input:
// sealed with an HMAC under a key of the handler, bound to the caller, and good for one retry (claimed
// in the handler's `claims`, so on any number of instances).

import type { ClaimStore } from '../shared/claim-store.js'
import type { Logger } from '../shared/logger.js'
import { toJsonText } from '../tool/tool-result.js'
import { callerTags, FOREIGN_STATE, importStateKey } from './caller-binding.js'
import { claimRequestState, REQUEST_STATE_TTL_SECONDS, reserveRequestState } from './claim-request-state.js'

/** What a forwarded round carries to its retry: the call it belongs to and the source's own state. */
export interface ForwardedState {
  kind: 'forward'
  /** The served tool's name. */
  tool: string
  /** SHA-256 of the call's arguments (hex). */
  args: string
  /** The keys of the input requests asked in this round: only these may be answered. */
  keys: string[]
  /** How many rounds this call has asked, this one included. */
  round: number
  /** The source server's own `requestState`, sent back to it on the retry. */
  source?: string
  /** The id of the call held in this process for the answers (a 2025-era source asked mid-call). */
  held?: string
  /** Makes the state one of a kind, so that it is accepted once. */
  nonce: string
  /** Expiry, in milliseconds since the epoch. */
  exp: number
  /** The caller it was handed to, as a tag (an HMAC of the identity, never the identity itself). */
  to: string
}

/** The largest sealed state handed out or accepted, in characters. */
const MAX_SERVED_STATE_CHARS = 16 * 1024
// The prefix that tells a forwarded round's state from an approval question's.
const PREFIX = 'tnf1.'
const TTL_MS = REQUEST_STATE_TTL_SECONDS * 1000

/** The seal of forwarded rounds of one handler (every instance it makes shares it). */
export interface ServedStateCodec {
  /** Whether `state` is one of ours (a forwarded round), not an approval question. */
  owns(state: string): boolean
  /** Seals a round for `caller`; `undefined` when the sealed state would pass the size bound. */
  mint(
    payload: Omit<ForwardedState, 'kind' | 'nonce' | 'exp' | 'to'>,
    caller: string,
  ): Promise<string | undefined>
  /**
   * The payload of a state sealed for `caller`, or {@link FOREIGN_STATE} for one sealed for another
   * caller; throws when it is malformed, tampered or expired.
   */
  verify(state: string, caller: string): Promise<ForwardedState | typeof FOREIGN_STATE>
  /**
   * Claims a verified state before its call runs again: rejects (invalid params) when it was claimed
   * before, on this instance or any other sharing the claims.
   */
  claim(state: ForwardedState): Promise<void>
}

/**
 * The seal of a handler's forwarded rounds: HMAC-SHA256 over the payload, which names the caller it was
 * handed to by a tag (so a state moved to another caller is refused as another's), under `key` (at
 * least 32 bytes; a random one when absent), with a ten-minute expiry and a one-time nonce, reserved in
 * the process's guard when it is the claims (a full guard refuses the round) and claimed in `claims`
 * (a store every instance shares, or the process's guard). A failing store is reported to `logger`.
 *
 * @example
 * const codec = servedStateCodec(process.env.MCP_STATE_KEY, createRedisStore({ url }))
 * const state = await codec.mint({ tool: 'test_ask', args, keys: ['name'], round: 1 }, 'caller:alice')
 */
export function servedStateCodec(
  key: string | Uint8Array | undefined,
  claims: ClaimStore,
  logger?: Logger,
): ServedStateCodec {
  const { hmac: hmacKey } = importStateKey(key)
  const tags = callerTags(hmacKey)
  const signed = (body: string): Uint8Array<ArrayBuffer> =>
    new TextEncoder().encode(`toolnexus.forwarded-input\u0000${body}`)
  return {
    owns: (state) => state.startsWith(PREFIX),
    async mint(payload, caller) {
      const full: ForwardedState = {
        kind: 'forward',
        ...payload,
        nonce: crypto.randomUUID(),
        exp: Date.now() + TTL_MS,
        to: await tags.tag(caller),
      }
      const body = base64url(new TextEncoder().encode(JSON.stringify(full)))
      const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey, signed(body)))
      const state = `${PREFIX}${body}.${base64url(mac)}`
      if (state.length > MAX_SERVED_STATE_CHARS) return undefined
      reserveRequestState(claims, full.nonce)
      return state
    },
    async verify(state, caller) {
      if (state.length > MAX_SERVED_STATE_CHARS || !state.startsWith(PREFIX)) throw new Error('malformed')
      const [body, mac, extra] = state.slice(PREFIX.length).split('.')
      if (body === undefined || mac === undefined || extra !== undefined) throw new Error('malformed')
      const macBytes = fromBase64url(mac)
      if (macBytes === undefined) throw new Error('malformed')
      if (!(await crypto.subtle.verify('HMAC', await hmacKey, macBytes, signed(body)))) {
        throw new Error('mac')
      }
      const bytes = fromBase64url(body)
      const payload: unknown = bytes === undefined ? undefined : JSON.parse(new TextDecoder().decode(bytes))
      if (!isForwardedState(payload)) throw new Error('malformed')
      if (payload.exp < Date.now()) throw new Error('expired')
      // Sealed by this handler, for someone else: refused as another caller's, nothing of it handed on.
      if (!(await tags.matches(payload.to, caller))) return FOREIGN_STATE
      return payload
    },
    claim: (state) => claimRequestState(claims, state.nonce, logger),
  }
}

/**
 * SHA-256 of a call's arguments' JSON text, hex: what a sealed state names the call by.
 *
 * @example
 * const digest = await argsDigest({ path: '/tmp/a' })
 */
export async function argsDigest(args: Record<string, unknown>): Promise<string> {
  const bytes = new TextEncoder().encode(toJsonText(args))
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
  return Array.from(hash, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

function isForwardedState(value: unknown): value is ForwardedState {
  if (typeof value !== 'object' || value === null) return false
  const state = value as Record<string, unknown>
  return (
    state.kind === 'forward' &&
    typeof state.tool === 'string' &&
    typeof state.args === 'string' &&
    Array.isArray(state.keys) &&
    state.keys.every((key) => typeof key === 'string') &&
    typeof state.round === 'number' &&
    (state.source === undefined || typeof state.source === 'string') &&
    (state.held === undefined || typeof state.held === 'string') &&
    typeof state.nonce === 'string' &&
    typeof state.exp === 'number' &&
    typeof state.to === 'string'
  )
}

function base64url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'))
  return Uint8Array.from(binary, (char) => char.charCodeAt(0))
}
