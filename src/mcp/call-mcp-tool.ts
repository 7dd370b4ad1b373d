import type { Client, CompatibilityCallToolResult } from '@modelcontextprotocol/client'
import { LOG_LEVEL_META_KEY, TRACEPARENT_META_KEY, TRACESTATE_META_KEY } from '@modelcontextprotocol/client'
import { activeTraceContext } from '../shared/trace-context.js'
import { pendingTaskResult } from '../tool/pending-task.js'
import type { JSONSchema, ToolContext, ToolResult } from '../tool/types.js'
import { checkStructuredContent } from './check-structured-content.js'
import { mapCallToolResult } from './map-call-tool-result.js'
import { awaitTask, taskOf } from './task-calls.js'

const DEFAULT_CALL_TIMEOUT_MS = 60_000

type CallToolAnswer = CompatibilityCallToolResult

/** A call whose task still works when the wait for it ended: the task to fetch later. */
export class StillWorking {
  constructor(readonly taskId: string) {}
}

/** One request of a call, sent on the session's client: a `tools/call`, or a task's `tasks/get`. */
export type CallRequest = (on: {
  client: Client
  signal: AbortSignal | undefined
  taskWaitMs: number | undefined
}) => Promise<CallToolAnswer | StillWorking>

/**
 * Sends one `tools/call` on a session's client, within the call's timeout (one minute when it names none).
 * A call the server answers with a task is polled to its result within the same timeout, or for
 * `taskWaitMs` at most, after which the task is left working (`new StillWorking(taskId)`).
 */
export async function requestToolCall(options: {
  client: Client
  tool: string
  args: Record<string, unknown>
  context: ToolContext
  signal: AbortSignal | undefined
  taskWaitMs: number | undefined
}): Promise<CallToolAnswer | StillWorking> {
  const { client, tool, args, context, signal, taskWaitMs } = options
  const timeoutMs = context.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS
  const deadline = Date.now() + timeoutMs
  // `request`, not `callTool`: the SDK checks output schemas only for the last page of tools/list,
  // so the connection checks them itself, for every tool.
  const answer: CallToolAnswer = await client.request(
    {
      method: 'tools/call',
      params: {
        name: tool,
        arguments: args,
        ...withMeta(context),
      },
    },
    {
      timeout: timeoutMs,
      ...(signal && { signal }),
      // A progress token is asked for only when the caller listens.
      ...(context.onProgress !== undefined && { onprogress: reportProgress(context.onProgress) }),
    },
  )
  const task = taskOf(answer)
  if (task === undefined) return answer
  const waiting = taskWaitMs === undefined ? {} : { waitMs: taskWaitMs }
  const result = await awaitTask(client, task, { deadline, signal, ...waiting })
  return result === undefined ? new StillWorking(task.taskId) : (result as CallToolAnswer)
}

/**
 * Asks again for a task an earlier call left working: polled at once, then for `taskWaitMs` and at most
 * half the call's timeout, so that the result (or the task's failure) is answered, or the task is left
 * working once more.
 */
export async function requestTaskResult(options: {
  client: Client
  taskId: string
  context: ToolContext
  signal: AbortSignal | undefined
  taskWaitMs: number | undefined
}): Promise<CallToolAnswer | StillWorking> {
  const { client, taskId, context, signal, taskWaitMs } = options
  const timeoutMs = context.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS
  const waitMs = Math.min(taskWaitMs ?? Number.POSITIVE_INFINITY, timeoutMs / 2)
  const task = { taskId, pollIntervalMs: undefined }
  const deadline = Date.now() + timeoutMs
  const result = await awaitTask(client, task, { deadline, signal, waitMs, immediate: true })
  return result === undefined ? new StillWorking(taskId) : (result as CallToolAnswer)
}

/** A server's answer to a call as a tool result, its `structuredContent` checked against the output schema. */
export function toolCallResult(
  answer: CallToolAnswer | StillWorking,
  options: { origin: { server: string; tool: string }; outputSchema: JSONSchema | undefined },
): ToolResult {
  const { origin, outputSchema } = options
  if (answer instanceof StillWorking) return pendingTaskResult({ ...origin, taskId: answer.taskId })
  const mapped = mapCallToolResult(answer, origin)
  return mapped.isError || outputSchema === undefined || 'toolResult' in answer
    ? mapped
    : checkStructuredContent(mapped, answer.structuredContent, outputSchema, origin)
}

/** The server's progress notifications, as the numbers and message they carry. */
function reportProgress(onProgress: NonNullable<ToolContext['onProgress']>) {
  return (progress: { progress: number; total?: number | undefined; message?: string | undefined }): void => {
    const report: Parameters<typeof onProgress>[0] = { progress: progress.progress }
    if (typeof progress.total === 'number') report.total = progress.total
    if (typeof progress.message === 'string') report.message = progress.message
    onProgress(report)
  }
}

/**
 * The call's `_meta`: its idempotency key (so that the server can recognise a second attempt of it) and
 * the trace context of the span it runs in (so that the server's spans join the host's trace).
 */
function withMeta(context: ToolContext): { _meta?: Record<string, string> } {
  const meta: Record<string, string> = {}
  if (context.idempotencyKey !== undefined) meta.idempotencyKey = context.idempotencyKey
  // A caller that takes the call's log messages gets them all (a 2026-07-28 server sends none unasked);
  // it filters them itself.
  if (context.onLog !== undefined) meta[LOG_LEVEL_META_KEY] = 'debug'
  const trace = activeTraceContext()
  if (trace !== undefined) {
    meta[TRACEPARENT_META_KEY] = trace.traceparent
    if (trace.tracestate !== undefined) meta[TRACESTATE_META_KEY] = trace.tracestate
  }
  return Object.keys(meta).length === 0 ? {} : { _meta: meta }
}
