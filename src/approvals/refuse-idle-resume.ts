// A resume that brings no approval answers only makes sense for a run that waits on an MCP task: then it
// asks the task's server for the result. For a run that waits on approvals only it would change nothing.
import type { RunState } from '../contracts/run-types.js'
import { ApprovalError } from '../errors.js'

/** Whether a suspended run waits on at least one call running on its MCP server as a task. */
function waitsOnTask(state: RunState): boolean {
  return Array.isArray(state.calls) && state.calls.some((call) => call.task !== undefined)
}

/**
 * Throws an `ApprovalError` (`invalid-approval`) for a resume without answers of a run that waits on no
 * task: nothing would be answered and nothing fetched. Called before the run is claimed.
 *
 * @example
 * refuseIdleResume(state, approvals) // throws when approvals is [] and no call of state runs as a task
 */
export function refuseIdleResume(state: RunState, approvals: unknown): void {
  if (Array.isArray(approvals) && approvals.length > 0) return
  if (waitsOnTask(state)) return
  throw new ApprovalError(
    'The run waits for approvals and none were answered (it waits on no MCP task to fetch); nothing ran.',
    { code: 'invalid-approval' },
  )
}
