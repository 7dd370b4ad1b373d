// Store mode keeps what browsers send: one conversation may hold only so much, checked before each save.
import type { ResolvedChatLimits } from './read-chat-request.js'

// Values nested deeper than this are counted by their depth alone (messages are a few levels deep).
const MAX_DEPTH = 64

/**
 * Why saving `messages` as one conversation would pass the store-mode caps (`conversationMessages`,
 * `conversationBytes`), or `undefined` when it would not. The size is what the messages hold as the store
 * writes them: each string's UTF-8 bytes, each binary's bytes, and a little for every other value.
 *
 * @example
 * conversationOverCap([...stored, question], limits) // 'The conversation would hold 10,001 messages, …'
 */
export function conversationOverCap(
  messages: readonly unknown[],
  limits: Pick<ResolvedChatLimits, 'conversationBytes' | 'conversationMessages'>,
): string | undefined {
  if (messages.length > limits.conversationMessages) {
    return `The conversation would hold ${count(messages.length)} messages, more than the limit of ${count(limits.conversationMessages)} (limits.conversationMessages). Start a new conversation.`
  }
  const bytes = sizeOf(messages, 0, limits.conversationBytes)
  if (bytes > limits.conversationBytes) {
    return `The conversation would hold more than ${count(limits.conversationBytes)} bytes (limits.conversationBytes). Start a new conversation.`
  }
  return undefined
}

/** About the bytes `value` takes as JSON; stops counting once past `budget`. */
function sizeOf(value: unknown, depth: number, budget: number): number {
  if (typeof value === 'string') return utf8Length(value) + 2
  if (typeof value !== 'object' || value === null) return 8
  if (ArrayBuffer.isView(value)) return value.byteLength
  if (value instanceof ArrayBuffer) return value.byteLength
  if (depth >= MAX_DEPTH) return 8
  let total = 2
  if (Array.isArray(value)) {
    for (const item of value) {
      total += sizeOf(item, depth + 1, budget - total) + 1
      if (total > budget) return total
    }
    return total
  }
  for (const [key, item] of Object.entries(value)) {
    total += utf8Length(key) + 3 + sizeOf(item, depth + 1, budget - total)
    if (total > budget) return total
  }
  return total
}

function utf8Length(text: string): number {
  let bytes = text.length
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    // Two bytes from U+0080, three from U+0800; a surrogate pair (four bytes) is two code units of 2.
    if (code >= 0x80) bytes += code >= 0x800 && (code < 0xd800 || code > 0xdfff) ? 2 : 1
  }
  return bytes
}

function count(value: number): string {
  return value.toLocaleString('en-US')
}
