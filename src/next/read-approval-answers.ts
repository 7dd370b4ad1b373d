// The AI SDK UI approval protocol on the server side: the answers `addToolApprovalResponse` leaves in the
// last assistant message, and the task parts that say a run waits on MCP tasks.
import type { UIMessage } from 'ai'
import type { ApprovalResponse } from '../contracts/run-types.js'
import { isRecord } from '../shared/is-record.js'
import { TASK_DATA_TYPE } from '../ui/to-ui-message-stream-response.js'

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
 * Whether a message shows a call still running as an MCP task (a `data-toolnexus-task` part whose status
 * is `working`): sent back last, it asks the handler to resume the run and fetch the task's result. Only
 * a hint: what resumes is the run the server kept (store mode) or signed (signed mode), never the part.
 *
 * @example
 * showsWorkingTask(lastMessage) // true after a run suspended on a task
 */
export function showsWorkingTask(message: UIMessage): boolean {
  return message.parts.some((part) => {
    const candidate = part as { type: string; data?: unknown }
    return (
      candidate.type === TASK_DATA_TYPE && isRecord(candidate.data) && candidate.data.status === 'working'
    )
  })
}
