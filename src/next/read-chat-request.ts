// Reads and checks the body `useChat` posts, within limits, before anything else looks at it. A browser
// may send anything: every answer here is bounded in time and memory and says which rule was broken.
import { type UIMessage, validateUIMessages } from 'ai'
import { ConfigError } from '../errors.js'
import { isRecord } from '../shared/is-record.js'
import { errorMessage } from '../tool/tool-result.js'

/**
 * How much one request, and one stored conversation, may carry. A body over `bodyBytes` is refused with
 * 413 while it is still being read (never buffered whole), and one that has not arrived within
 * `bodyTimeoutMs` with 408; too many messages or parts get 400; a `data:` URL over `fileBytes` gets 413
 * before it is decoded. In store mode, a request that would take the conversation past
 * `conversationBytes` or `conversationMessages` gets 413 before anything is stored. Each answer names the
 * limit.
 *
 * @example
 * const limits: ChatLimits = { bodyBytes: 1_000_000, messages: 200, parts: 2_000, conversationBytes: 5_000_000 }
 */
export interface ChatLimits {
  /** Bytes of one request body. @default 4_000_000 (under the 4.5 MB that serverless platforms accept) */
  bodyBytes?: number
  /** Milliseconds the whole body may take to arrive. @default 30_000 */
  bodyTimeoutMs?: number
  /** Messages in one request. @default 1_000 */
  messages?: number
  /** Parts of all the request's messages together. @default 10_000 */
  parts?: number
  /** Bytes of one file sent as a `data:` URL, counted before it is decoded. @default 10_000_000 */
  fileBytes?: number
  /** Store mode: bytes of one stored conversation (its messages as the store keeps them). @default 16_000_000 */
  conversationBytes?: number
  /** Store mode: messages in one stored conversation. @default 10_000 */
  conversationMessages?: number
}

/** The limits with every default filled in. */
export type ResolvedChatLimits = Required<ChatLimits>

const DEFAULT_CHAT_LIMITS: ResolvedChatLimits = {
  bodyBytes: 4_000_000,
  bodyTimeoutMs: 30_000,
  messages: 1_000,
  parts: 10_000,
  fileBytes: 10_000_000,
  conversationBytes: 16_000_000,
  conversationMessages: 10_000,
}

/**
 * Reads a `limits` option, each given limit a whole number of at least 1, the rest the defaults.
 *
 * @example
 * readChatLimits({ bodyBytes: 1_000_000 }).parts // 10_000
 */
export function readChatLimits(limits: ChatLimits | undefined): ResolvedChatLimits {
  if (limits === undefined) return DEFAULT_CHAT_LIMITS
  if (typeof limits !== 'object' || limits === null) {
    throw new ConfigError(
      '`limits` must be an object, like { bodyBytes: 1_000_000, messages: 200, parts: 2_000 }.',
      { field: 'limits' },
    )
  }
  const resolved = { ...DEFAULT_CHAT_LIMITS }
  for (const key of Object.keys(DEFAULT_CHAT_LIMITS) as Array<keyof ResolvedChatLimits>) {
    const value = limits[key]
    if (value === undefined) continue
    if (!Number.isInteger(value) || value < 1) {
      throw new ConfigError(`\`limits.${key}\` must be a whole number of at least 1; got ${String(value)}.`, {
        field: `limits.${key}`,
      })
    }
    resolved[key] = value
  }
  return resolved
}

/** A body `useChat` sent, checked. */
export interface ChatRequest {
  id: string | undefined
  /** What the body carried: `messages`, or the one `message` of a client that sends only the newest. */
  messages: UIMessage[]
  trigger: 'submit-message' | 'regenerate-message'
}

/** The request, or the status and reason it is refused with. */
export type ChatRequestReading =
  | { ok: true; request: ChatRequest }
  | { ok: false; status: 400 | 408 | 413; error: string }

const EXPECTED =
  'Expected the body useChat sends: { id: string, messages: UIMessage[], trigger: "submit-message" | "regenerate-message" } (or { id, message } from a client that sends only the newest message).'
const ROLES = new Set(['system', 'user', 'assistant'])

/**
 * Reads `request`'s body as useChat's. The byte limit is enforced on the stream itself: a body that
 * declares or reaches more than `limits.bodyBytes` is cancelled there and answered with 413.
 *
 * @example
 * const reading = await readChatRequest(request, DEFAULT_CHAT_LIMITS)
 * if (!reading.ok) return Response.json({ error: reading.error }, { status: reading.status })
 */
export async function readChatRequest(
  request: Request,
  limits: ResolvedChatLimits,
): Promise<ChatRequestReading> {
  let text: string | undefined | typeof TIMED_OUT
  try {
    text = await readText(request, limits.bodyBytes, limits.bodyTimeoutMs)
  } catch (error) {
    return { ok: false, status: 400, error: `The request body could not be read: ${errorMessage(error)}` }
  }
  if (text === TIMED_OUT) {
    return {
      ok: false,
      status: 408,
      error: `The request body did not arrive within ${count(limits.bodyTimeoutMs)} ms (limits.bodyTimeoutMs).`,
    }
  }
  if (text === undefined) {
    return {
      ok: false,
      status: 413,
      error: `The request body is larger than the limit of ${count(limits.bodyBytes)} bytes (limits.bodyBytes).`,
    }
  }
  const refuse = (error: string): ChatRequestReading => ({ ok: false, status: 400, error })

  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (error) {
    return refuse(`The request body is not JSON (${errorMessage(error)}). ${EXPECTED}`)
  }
  if (!isRecord(body)) return refuse(`The request body is not an object. ${EXPECTED}`)
  const { id, trigger } = body
  if (id !== undefined && typeof id !== 'string') return refuse(`"id" must be a string. ${EXPECTED}`)
  if (trigger !== undefined && trigger !== 'submit-message' && trigger !== 'regenerate-message') {
    return refuse(
      `"trigger" must be "submit-message" or "regenerate-message", not ${JSON.stringify(trigger)}. ${EXPECTED}`,
    )
  }
  const messages = Array.isArray(body.messages)
    ? (body.messages as unknown[])
    : body.messages === undefined && isRecord(body.message)
      ? [body.message]
      : undefined
  if (messages === undefined) return refuse(`"messages" must be an array of UI messages. ${EXPECTED}`)
  if (messages.length === 0) return refuse(`"messages" is empty: there is nothing to answer. ${EXPECTED}`)
  if (messages.length > limits.messages) {
    return refuse(
      `The request has ${count(messages.length)} messages, more than the limit of ${count(limits.messages)} (limits.messages).`,
    )
  }
  let parts = 0
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) return refuse(`messages[${index}] is not an object. ${EXPECTED}`)
    if (typeof message.role !== 'string' || !ROLES.has(message.role)) {
      return refuse(
        `messages[${index}].role must be "system", "user" or "assistant", not ${JSON.stringify(message.role)}.`,
      )
    }
    if (!Array.isArray(message.parts)) {
      return refuse(
        `messages[${index}].parts must be an array (UI messages of ai 5 and later; "content" strings are the older format).`,
      )
    }
    parts += message.parts.length
    for (const [partIndex, part] of message.parts.entries()) {
      const bytes = dataUrlBytes(part)
      if (bytes > limits.fileBytes) {
        return {
          ok: false,
          status: 413,
          error: `messages[${index}].parts[${partIndex}] is a file of about ${count(bytes)} bytes, more than the limit of ${count(limits.fileBytes)} (limits.fileBytes).`,
        }
      }
    }
  }
  if (parts > limits.parts) {
    return refuse(
      `The request's messages have ${count(parts)} parts, more than the limit of ${count(limits.parts)} (limits.parts).`,
    )
  }
  try {
    // The AI SDK's own check of every part; it answers with the path of the first bad field.
    const validated = await validateUIMessages({ messages })
    return {
      ok: true,
      request: { id, messages: validated, trigger: trigger ?? 'submit-message' },
    }
  } catch (error) {
    return refuse(`The messages are not valid UI messages: ${errorMessage(error)}`)
  }
}

/**
 * The bytes a `data:` URL part carries, from the length of its text alone (nothing is decoded): three
 * quarters of a base64 payload, else the payload's length. 0 for any other part.
 */
function dataUrlBytes(part: unknown): number {
  if (!isRecord(part) || part.type !== 'file' || typeof part.url !== 'string') return 0
  const { url } = part
  if (url.slice(0, 5).toLowerCase() !== 'data:') return 0
  const comma = url.indexOf(',')
  if (comma === -1) return 0
  const payload = url.length - comma - 1
  return /;\s*base64\s*$/i.test(url.slice(0, comma)) ? Math.floor((payload * 3) / 4) : payload
}

const TIMED_OUT = Symbol('timed out')

/**
 * The body as text; `undefined` once it is (or says it will be) longer than `limit` bytes; `TIMED_OUT`
 * when it has not all arrived within `timeoutMs`. Either way the rest is cancelled, never waited for.
 */
async function readText(
  request: Request,
  limit: number,
  timeoutMs: number,
): Promise<string | undefined | typeof TIMED_OUT> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > limit) {
    await request.body?.cancel().catch(() => {})
    return undefined
  }
  if (request.body === null) return ''
  const reader = request.body.getReader()
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs)
  })
  const decoder = new TextDecoder()
  let text = ''
  let received = 0
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), deadline])
      if (next === TIMED_OUT) {
        reader.cancel().catch(() => {})
        return TIMED_OUT
      }
      const { done, value } = next
      if (done) return text + decoder.decode()
      received += value.byteLength
      if (received > limit) {
        await reader.cancel().catch(() => {})
        return undefined
      }
      text += decoder.decode(value, { stream: true })
    }
  } finally {
    clearTimeout(timer)
  }
}

function count(value: number): string {
  return value.toLocaleString('en-US')
}
