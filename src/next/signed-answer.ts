// The signed stateless mode's carrier: each answer the server streams ends with its own transcript (the
// model messages it produced, thought signatures and all) as text, signed, in the assistant message's
// `metadata`. `readUIMessageStream` keeps message metadata and `useChat` posts it back with the message,
// so the next request gets exactly what this server produced, or nothing.
import type { UIMessage } from 'ai'
import type { Signer } from '../shared/create-hmac-signer.js'
import { isRecord } from '../shared/is-record.js'

/** The key under `message.metadata` that carries a signed answer. */
export const ANSWER_METADATA_KEY = 'toolnexus'

/** What a signature is for: only chat answers, only this format. */
const PURPOSE = 'toolnexus/chat-answer/v1'

/**
 * A signed answer as it travels in `message.metadata.toolnexus`: `answer` is the JSON text of
 * `{ messages }`, signed byte for byte, so nothing that stores and reloads UI messages (a database that
 * reorders JSON keys, say) can change what was signed.
 */
export interface SignedAnswer {
  answer: string
  signature: string
}

/** What the history's assistant message turned out to carry. */
export type AnswerReading<Message> =
  | { kind: 'signed'; messages: Message[] }
  /** No signed answer at all: a message the client made (or one from before signing). */
  | { kind: 'unsigned' }
  /** A signed answer whose text or signature was changed, or was signed with another secret. */
  | { kind: 'altered' }

/**
 * The metadata that carries `messages` (one run's model messages), signed.
 *
 * @example
 * const metadata = await signAnswer(signer, result.messages.slice(promptLength))
 * // { toolnexus: { answer: '{"messages":[…]}', signature: '…' } }
 */
export async function signAnswer<Message>(
  signer: Signer,
  messages: readonly Message[],
): Promise<{ [ANSWER_METADATA_KEY]: SignedAnswer }> {
  const answer = JSON.stringify({ messages })
  return { [ANSWER_METADATA_KEY]: { answer, signature: await signer.sign(PURPOSE, answer) } }
}

/**
 * The model messages a history message carries, when this server signed them.
 *
 * @example
 * const reading = await readSignedAnswer<ModelMessage>(signer, message)
 * if (reading.kind === 'signed') transcript.push(...reading.messages)
 */
export async function readSignedAnswer<Message>(
  signer: Signer,
  message: UIMessage,
): Promise<AnswerReading<Message>> {
  const carried = isRecord(message.metadata) ? message.metadata[ANSWER_METADATA_KEY] : undefined
  if (carried === undefined) return { kind: 'unsigned' }
  if (!isRecord(carried) || typeof carried.answer !== 'string' || typeof carried.signature !== 'string') {
    return { kind: 'altered' }
  }
  if (!(await signer.verify(PURPOSE, carried.answer, carried.signature))) return { kind: 'altered' }
  // Signed by this server, so it parses to what signAnswer wrote; the shape check guards a format change.
  const parsed: unknown = JSON.parse(carried.answer)
  if (!isRecord(parsed) || !Array.isArray(parsed.messages)) return { kind: 'altered' }
  return { kind: 'signed', messages: parsed.messages as Message[] }
}
