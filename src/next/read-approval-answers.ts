// The AI SDK UI approval protocol on the server side: the answers `addToolApprovalResponse` leaves in the
// last assistant message.
import type { UIMessage } from 'ai'
import type { ApprovalResponse } from '../contracts/run-types.js'
import { isRecord } from '../shared/is-record.js'

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
