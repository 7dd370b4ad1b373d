import type { ConversationRecord } from './conversation-store.js'

// Bytes (an image or file part's `data`) and URLs survive the trip through JSON text as tagged objects;
// plain JSON would turn a Uint8Array into an object of numbers and a URL into a string.
const BYTES_TAG = '$toolnexus.bytes'
const URL_TAG = '$toolnexus.url'

/**
 * A conversation record as JSON text, for a database store. `Uint8Array` (and `Buffer`) and `URL` values
 * are kept as tagged objects that `decodeRecord` turns back.
 *
 * @example
 * const text = encodeRecord({ messages })
 */
export function encodeRecord<Message>(record: ConversationRecord<Message>): string {
  const value = record.suspended === undefined ? { messages: record.messages } : record
  return JSON.stringify(value, function (this: Record<string, unknown>, key, encoded: unknown) {
    // The holder's own value: JSON.stringify has already applied toJSON (Buffer, URL) to `encoded`.
    const original = this[key]
    if (original instanceof Uint8Array) return { [BYTES_TAG]: toBase64(original) }
    if (original instanceof URL) return { [URL_TAG]: original.href }
    return encoded
  })
}

/**
 * The record `encodeRecord` wrote. Text that is not such a record is refused through `fail`.
 *
 * @example
 * const record = decodeRecord<ModelMessage>(text, (error) => new Error('bad record', { cause: error }))
 */
export function decodeRecord<Message>(
  text: string,
  fail: (error: unknown) => Error,
): ConversationRecord<Message> {
  let parsed: unknown
  try {
    parsed = JSON.parse(text, (_key, value: unknown) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
      const keys = Object.keys(value)
      if (keys.length !== 1) return value
      const tagged = (value as Record<string, unknown>)[keys[0] as string]
      if (typeof tagged !== 'string') return value
      if (keys[0] === BYTES_TAG) return fromBase64(tagged)
      if (keys[0] === URL_TAG) return new URL(tagged)
      return value
    })
  } catch (error) {
    throw fail(error)
  }
  const record = parsed as Partial<ConversationRecord<Message>> | null
  if (typeof record !== 'object' || record === null || !Array.isArray(record.messages)) {
    throw fail(new Error('the stored record has no messages array'))
  }
  return record.suspended === undefined
    ? { messages: record.messages }
    : { messages: record.messages, suspended: record.suspended }
}

// btoa/atob rather than Buffer: the in-memory store uses this too, and it runs on the edge runtime.
function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000))
  }
  return btoa(binary)
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
  return bytes
}
