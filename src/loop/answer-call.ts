import type { Hooks } from '../contracts/run-types.js'
import { type PendingTaskMark, pendingTaskOf } from '../tool/pending-task.js'
import { errorResult, toolFailed } from '../tool/tool-result.js'
import type { ToolContext, ToolResult } from '../tool/types.js'
import { DefaultToolkit } from '../toolkit/default-toolkit.js'
import type { CheckedCall, ToolRunner } from '../toolkit/toolkit.js'
import type { PreparedCall } from './prepare-call.js'
import { settleQuietly } from './run-bounded.js'
import type { RunScope } from './run-scope.js'
import type { SearchSession } from './search-session.js'

/**
 * Answers one call: its result as it is when it is known at once (a tool of a toolkit made by
 * `createToolkit` that answers synchronously, arguments that cannot be used), else its promise. Without
 * tool hooks the promise never rejects (`executeTool` turns every failure into an error result); with them
 * a hook that throws rejects it, and it is marked handled, because the loop may stop awaiting first.
 *
 * @example
 * const answer = answerCall(prepared, { toolkit, hooks, scope, search: undefined })
 * const result = answer instanceof Promise ? await answer : answer
 */
export function answerCall<Message>(
  prepared: PreparedCall,
  context: LoopCallContext<Message>,
): ToolResult | Promise<ToolResult> {
  const { toolkit, hooks, scope, search } = context
  const { call, problem } = prepared
  if (problem !== undefined) return errorResult(problem)
  const args =
    typeof prepared.args === 'object' && prepared.args !== null
      ? (prepared.args as Record<string, unknown>)
      : {}
  if (hooks.beforeTool === undefined && hooks.afterTool === undefined) {
    // The common case, run for every call: no async frame of its own. Without tool hooks nothing inside
    // the run can end it while tools run, so they need the run's signal only if the outside can abort it.
    return executeTool(toolkit, search, call, args, scope.outsideSignal, prepared, prepared.checked)
  }
  return settleQuietly(answerCallWithHooks(prepared, args, context))
}

async function answerCallWithHooks<Message>(
  prepared: PreparedCall,
  given: Record<string, unknown>,
  context: LoopCallContext<Message>,
): Promise<ToolResult> {
  const { toolkit, hooks, scope, search } = context
  const { call } = prepared
  let args = given
  let result: ToolResult | undefined
  if (hooks.beforeTool !== undefined) {
    const change = await hooks.beforeTool({ toolCallId: call.id, name: call.name, args })
    if (change?.args !== undefined) {
      args = change.args
      prepared.replacedArgs = args
    }
    if (change?.result !== undefined) result = change.result
  }
  result ??= await executeTool(
    toolkit,
    search,
    call,
    args,
    scope.signal,
    prepared,
    // A `beforeTool` hook may change the arguments (in place, too): then they are checked again.
    hooks.beforeTool === undefined ? prepared.checked : undefined,
  )
  return await afterTool(hooks, call, args, result)
}

/**
 * A resumed call that ran as an MCP task: its result asked of its server (by server name, never by the
 * tool's name, so no tool of that name runs in its place), then given to the `afterTool` hook. Never
 * rejects.
 *
 * @example
 * const result = await answerTask(prepared, prepared.task, { toolkit, hooks, scope, search: undefined })
 */
export function answerTask<Message>(
  prepared: PreparedCall,
  task: PendingTaskMark,
  context: LoopCallContext<Message>,
  signal: AbortSignal | undefined = context.scope.outsideSignal,
): Promise<ToolResult> {
  return settleQuietly(fetchTask(prepared, task, context, signal))
}

async function fetchTask<Message>(
  prepared: PreparedCall,
  task: PendingTaskMark,
  context: LoopCallContext<Message>,
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  const { toolkit, hooks } = context
  const { call } = prepared
  const result =
    toolkit?.fetchTask === undefined
      ? errorResult(
          `The result of task ${JSON.stringify(task.taskId)} could not be fetched: this toolkit has no MCP servers.`,
        )
      : await toolkit
          .fetchTask(task, { toolCallId: call.id, ...(signal !== undefined && { signal }) })
          .then(undefined, (error: unknown) => toolFailed(call.name, error))
  // A task still working has no result for the hook yet.
  if (pendingTaskOf(result) !== undefined) return result
  return await afterTool(hooks, call, (prepared.args ?? {}) as Record<string, unknown>, result)
}

/** A call's result as the `afterTool` hook leaves it (as it is without the hook). */
export async function afterTool<Message>(
  hooks: Hooks<Message>,
  call: PreparedCall['call'],
  args: Record<string, unknown>,
  result: ToolResult,
): Promise<ToolResult> {
  if (hooks.afterTool === undefined) return result
  const change = await hooks.afterTool({ toolCallId: call.id, name: call.name, args, result })
  return change?.result ?? result
}

/** What answering one call needs besides the call. */
export interface LoopCallContext<Message> {
  toolkit: ToolRunner | undefined
  hooks: Hooks<Message>
  scope: RunScope
  search: SearchSession | undefined
}

// Positional, not an options object: this runs for every tool call.
function executeTool(
  toolkit: ToolRunner | undefined,
  search: SearchSession | undefined,
  { name, id: toolCallId }: PreparedCall['call'],
  args: Record<string, unknown>,
  signal: AbortSignal | undefined,
  { idempotencyKey }: PreparedCall,
  /** The toolkit's check of these arguments, made for their approval. */
  checked: CheckedCall | undefined,
): ToolResult | Promise<ToolResult> {
  const searched = search?.answer(name, args)
  if (searched !== undefined) return settled(name, searched)
  if (toolkit === undefined) {
    return errorResult(`Unknown tool "${name}". No tools are available in this run.`)
  }
  // A toolkit made by `createToolkit` answers a tool that answers synchronously at once, no promise, and
  // never rejects; a toolkit made elsewhere, or whose `execute` was wrapped, runs through `execute`.
  if (checked === undefined && DefaultToolkit.runsOwnExecute(toolkit)) {
    return toolkit.executeNow(name, args, toolCallId, idempotencyKey, signal)
  }
  try {
    const context: ToolContext = { toolCallId }
    if (idempotencyKey !== undefined) context.idempotencyKey = idempotencyKey
    if (signal !== undefined) context.signal = signal
    if (checked !== undefined) return settled(name, checked.execute(context))
    return settled(name, toolkit.execute(name, args, context))
  } catch (error) {
    // A custom Toolkit may break the never-throws rule; the model still gets an answer.
    return toolFailed(name, error)
  }
}

/** A run's promise that cannot reject: a custom Toolkit's rejection becomes the error the model reads. */
function settled(name: string, running: PromiseLike<ToolResult>): Promise<ToolResult> {
  return Promise.resolve(running).then(undefined, (error: unknown) => toolFailed(name, error))
}
