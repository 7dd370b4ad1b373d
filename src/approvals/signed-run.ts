// A suspended run that travels with a message, signed: what binds it to its conversation and to the one
// answer it belongs to, how it is signed, and how it is read back (only when this server signed it).
import type { UIMessage } from 'ai'
import type { Signer } from '../shared/create-hmac-signer.js'
import { isRecord } from '../shared/is-record.js'
import type { StoredSuspension } from './stored-suspension.js'

/** The key under `message.metadata` that carries a signed suspended run. */
export const RUN_METADATA_KEY = 'toolnexusRun'

/** What a run signature is for: only suspended chat runs, only this format. */
const PURPOSE = 'toolnexus/chat-run/v2'

/**
 * A suspended run as it travels: the run, and what binds it — the conversation (the chat id), the one
 * answer it belongs to (the signature of that message's signed answer), and when it expires.
 */
export interface SignedRun {
  suspension: StoredSuspension
  chatId: string
  /** The signature of the signed answer carried by the same message. */
  answer: string
  /** `Date.now()` from which the run is refused (the handler's `approvalTtlSeconds`). */
  expiresAt: number
}

/**
 * The metadata that carries a suspended run, signed: its JSON text and the signature over it.
 *
 * @example
 * const metadata = await signSuspension(signer, { suspension, chatId, answer: signed.signature, expiresAt })
 */
export async function signSuspension(
  signer: Signer,
  run: SignedRun,
): Promise<{ [RUN_METADATA_KEY]: { run: string; signature: string } }> {
  const text = JSON.stringify(run)
  return { [RUN_METADATA_KEY]: { run: text, signature: await signer.sign(PURPOSE, text) } }
}

/**
 * The suspended run a message carries, when this server signed it; `undefined` otherwise.
 *
 * @example
 * const run = await readSignedSuspension(signer, lastMessage)
 */
export async function readSignedSuspension(
  signer: Signer,
  message: UIMessage,
): Promise<SignedRun | undefined> {
  const carried = isRecord(message.metadata) ? message.metadata[RUN_METADATA_KEY] : undefined
  if (!isRecord(carried) || typeof carried.run !== 'string' || typeof carried.signature !== 'string') {
    return undefined
  }
  if (!(await signer.verify(PURPOSE, carried.run, carried.signature))) return undefined
  const parsed: unknown = JSON.parse(carried.run)
  if (
    !isRecord(parsed) ||
    typeof parsed.chatId !== 'string' ||
    typeof parsed.answer !== 'string' ||
    typeof parsed.expiresAt !== 'number' ||
    !isRecord(parsed.suspension)
  ) {
    return undefined
  }
  const { suspension } = parsed
  if (!isRecord(suspension.state) || !Number.isInteger(suspension.placeholders)) return undefined
  return parsed as unknown as SignedRun
}
