// The answer of a call that still runs on its MCP server as a task when the run stops waiting for it:
// a result that says so, recognised by the loop (which suspends the run) by object identity alone, so
// that no tool can pass a result of its own off as one.
import type { ToolResult } from './types.js'

/** The longest task id a server may hand out: a longer one is refused, not kept in a run's state. */
export const MAX_TASK_ID_LENGTH = 1024

/** Which task a pending call waits for: its server (by config name), the server's own tool name, the task. */
export interface PendingTaskMark {
  server: string
  tool: string
  taskId: string
}

const marks = new WeakMap<ToolResult, PendingTaskMark>()

/**
 * The result of a call whose task still runs: not an error, its output saying the result comes later,
 * marked so that the loop suspends the run on it.
 *
 * @example
 * return pendingTaskResult({ server: 'reports', tool: 'build', taskId: 'task-1' })
 */
export function pendingTaskResult(mark: PendingTaskMark): ToolResult {
  const result: ToolResult = {
    output: `Still running on MCP server "${mark.server}" as task ${JSON.stringify(mark.taskId)}; its result is fetched when the run resumes.`,
    isError: false,
    metadata: { pendingTask: { server: mark.server, taskId: mark.taskId } },
  }
  marks.set(result, { ...mark })
  return result
}

/**
 * The task a result waits for, when `pendingTaskResult` made it; `undefined` for any other result.
 *
 * @example
 * const task = pendingTaskOf(result) // { server, tool, taskId } or undefined
 */
export function pendingTaskOf(result: ToolResult): PendingTaskMark | undefined {
  return marks.get(result)
}
