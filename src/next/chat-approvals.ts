// The AI SDK UI approval protocol on the server side: the answers `addToolApprovalResponse` leaves in the
// last assistant message, and (in the signed stateless mode) the suspended run that travels with that
// message, signed, in its metadata.
import type { UIMessage } from 'ai'
import type { ApprovalResponse } from '../approvals/run-state.js'
import type { StoredSuspension } from '../approvals/stored-suspension.js'
import type { Signer } from '../shared/hmac-signer.js'
import { isRecord } from '../shared/is-record.js'

/** The key under `message.metadata` that carries a signed suspended run. */
export const RUN_METADATA_KEY = 'toolnexusRun'

/** What a run signature is for: only suspended chat runs, only this format. */
const PURPOSE = 'toolnexus/chat-run/v1'

/**
 * The approval answers in a message: every tool part the user answered (`approval-responded`), as
 * `useChat`'s `addToolApprovalResponse({ id, approved, reason })` leaves it.
 *
 * @example
 * readApprovalAnswers(lastMessage) // [{ approvalId: 'approval_…', approved: false, reason: 'Not now.' }]
 */
export function readApprovalAnswers(message: UIMessage): ApprovalResponse[] {
  const answers: ApprovalResponse[] = []
  for (const part of message.parts) {
    const candidate = part as { type: string; state?: unknown; approval?: unknown }
    if (candidate.state !== 'approval-responded' || !isRecord(candidate.approval)) continue
    const { id, approved, reason } = candidate.approval
    if (typeof id !== 'string' || typeof approved !== 'boolean') continue
    answers.push(
      approved
        ? { approvalId: id, approved }
        : { approvalId: id, approved, ...(typeof reason === 'string' && reason !== '' && { reason }) },
    )
  }
  return answers
}

/**
 * The metadata that carries a suspended run, signed: its JSON text and the signature over it.
 *
 * @example
 * const metadata = await signSuspension(signer, toStoredSuspension(result))
 */
export async function signSuspension(
  signer: Signer,
  suspension: StoredSuspension,
): Promise<{ [RUN_METADATA_KEY]: { run: string; signature: string } }> {
  const run = JSON.stringify(suspension)
  return { [RUN_METADATA_KEY]: { run, signature: await signer.sign(PURPOSE, run) } }
}

/**
 * The suspended run a message carries, when this server signed it; `undefined` otherwise.
 *
 * @example
 * const suspension = await readSignedSuspension(signer, lastMessage)
 */
export async function readSignedSuspension(
  signer: Signer,
  message: UIMessage,
): Promise<StoredSuspension | undefined> {
  const carried = isRecord(message.metadata) ? message.metadata[RUN_METADATA_KEY] : undefined
  if (!isRecord(carried) || typeof carried.run !== 'string' || typeof carried.signature !== 'string') {
    return undefined
  }
  if (!(await signer.verify(PURPOSE, carried.run, carried.signature))) return undefined
  const parsed: unknown = JSON.parse(carried.run)
  if (!isRecord(parsed) || !isRecord(parsed.state) || !Number.isInteger(parsed.placeholders)) return undefined
  return parsed as unknown as StoredSuspension
}
