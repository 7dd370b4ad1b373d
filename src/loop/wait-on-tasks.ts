// How a run that cannot suspend (the provider form, a durable run) waits for a call its MCP server runs
// as a task: the server is asked again until the task settles, but never for longer than the bound,
// counted from the call's start. Past the bound the task is cancelled and the model reads why.
import { type PendingTaskMark, pendingTaskOf } from '../tool/pending-task.js'
import { errorResult } from '../tool/tool-result.js'
import type { ToolResult } from '../tool/types.js'
import { DEFAULT_TOOL_TIMEOUT_MS } from '../toolkit/run-tool.js'
import { afterTool, answerTask, type LoopCallContext } from './answer-call.js'
import type { PreparedCall } from './prepare-call.js'

/**
 * `answer`, waiting for a call left running as an MCP task: its server is asked again (each round bounded
 * like a resumed task's fetch) until the task settles, the run is aborted (then the call keeps the result
 * it had), or the bound passes. The bound is `maxWaitMs` (the run's `maxTaskWaitMs`), else the toolkit's
 * tool timeout (`toolTimeoutMs`, one minute when the toolkit names none), counted from the call's start:
 * past it the round in flight is aborted, which asks the server to cancel the task (`tasks/cancel`, best
 * effort), and the call is answered with an error that says so. For runs that cannot be resumed, so must
 * not suspend on a task.
 *
 * @example
 * const answer = waitingOnTasks((call) => answerCall(call, context), context, settings.maxTaskWaitMs)
 */
export function waitingOnTasks<Message>(
  answer: (call: PreparedCall) => ToolResult | Promise<ToolResult>,
  context: LoopCallContext<Message>,
  maxWaitMs: number | undefined,
): (call: PreparedCall) => Promise<ToolResult> {
  const boundMs = maxWaitMs ?? context.toolkit?.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS
  return async (prepared) => {
    const deadline = Date.now() + boundMs
    let result = await answer(prepared)
    for (;;) {
      const task = pendingTaskOf(result)
      if (task === undefined || context.scope.outsideSignal?.aborted === true) return result
      const next = await fetchBefore(prepared, task, context, deadline)
      if (next === undefined) return await gaveUp(prepared, task, context, boundMs)
      result = next
    }
  }
}

/**
 * One round of asking for the task's result, aborted at `deadline` (at once when it has passed: the
 * aborted round is what sends `tasks/cancel`). `undefined` when the deadline ended the round.
 */
async function fetchBefore<Message>(
  prepared: PreparedCall,
  task: PendingTaskMark,
  context: LoopCallContext<Message>,
  deadline: number,
): Promise<ToolResult | undefined> {
  // The round's signal: aborted at the deadline, or with the run.
  const round = new AbortController()
  // At least a millisecond: the round must start before it is aborted, or nothing asks for the cancel.
  const timer = setTimeout(() => round.abort(), Math.max(1, deadline - Date.now()))
  const outside = context.scope.outsideSignal
  const onOutside = () => round.abort(outside?.reason)
  outside?.addEventListener('abort', onOutside, { once: true })
  try {
    const result = await answerTask(prepared, task, context, round.signal)
    return round.signal.aborted && outside?.aborted !== true ? undefined : result
  } finally {
    clearTimeout(timer)
    outside?.removeEventListener('abort', onOutside)
  }
}

/** The answer of a call whose task outlasted the bound, as the `afterTool` hook leaves it. */
function gaveUp<Message>(
  prepared: PreparedCall,
  task: PendingTaskMark,
  context: LoopCallContext<Message>,
  boundMs: number,
): Promise<ToolResult> {
  const result = errorResult(
    `Task ${JSON.stringify(task.taskId)} on MCP server "${task.server}" did not finish within ${boundMs} ms, so this call stopped waiting for it; the server was asked to cancel the task, and it may still be running.`,
  )
  const { call } = prepared
  return afterTool(context.hooks, call, (prepared.args ?? {}) as Record<string, unknown>, result)
}
