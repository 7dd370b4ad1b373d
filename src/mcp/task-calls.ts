// Task-augmented tool calls (the MCP tasks extension) on the client side. The v2 SDK's Client refuses any
// answer whose `resultType` it does not know, so the session's transport hands a task answer to the
// Client as a complete result that carries the task under a key of ours; the call then polls
// `tasks/get` until the task settles and maps its inline result as it maps a direct answer.

import {
  type Client,
  SdkError,
  SdkErrorCode,
  type StandardSchemaV1,
  type Transport,
} from '@modelcontextprotocol/client'
import { isRecord } from '../shared/is-record.js'
import { MAX_TASK_ID_LENGTH } from '../tool/pending-task.js'

/** The extension a client declares (in its capabilities' `extensions`) to be answered with tasks. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks'

// Where the transport puts a task answer inside the complete result it hands the Client.
const TASK_META_KEY = 'dev.toolnexus/task'
const DEFAULT_POLL_MS = 500
const MIN_POLL_MS = 50
const MAX_POLL_MS = 5000
const BACKOFF = 1.5
const CANCEL_TIMEOUT_MS = 5000

/** A task a server created for one call: its id, and how often it asked to be polled. */
export interface McpTask {
  taskId: string
  pollIntervalMs: number | undefined
}

/**
 * Makes a connected transport hand task answers to the Client as complete results carrying the task
 * (read back with `taskOf`). The key is removed from every other answer, so a server cannot pass a
 * direct result off as a task.
 *
 * @example
 * await client.connect(transport)
 * interceptTaskAnswers(transport)
 */
export function interceptTaskAnswers(transport: Transport): void {
  const deliver = transport.onmessage
  if (deliver === undefined) return
  transport.onmessage = (message, extra) => deliver(asCompleteAnswer(message), extra)
}

function asCompleteAnswer<T>(message: T): T {
  if (!isRecord(message) || !isRecord(message.result)) return message
  const { result } = message
  if (result.resultType === 'task') {
    const task = typeof result.taskId === 'string' ? result : undefined
    const content = { resultType: 'complete', content: [], _meta: { [TASK_META_KEY]: task ?? null } }
    return { ...message, result: content }
  }
  if (isRecord(result._meta) && TASK_META_KEY in result._meta) {
    const { [TASK_META_KEY]: _dropped, ...meta } = result._meta
    return { ...message, result: { ...result, _meta: meta } }
  }
  return message
}

/**
 * The task a `tools/call` answer stands for, when the server answered with one.
 *
 * @example
 * const task = taskOf(answer)
 * if (task !== undefined) answer = await awaitTask(client, task, { deadline, signal })
 */
export function taskOf(answer: unknown): McpTask | undefined {
  const meta = isRecord(answer) && isRecord(answer._meta) ? answer._meta : undefined
  if (meta === undefined || !(TASK_META_KEY in meta)) return undefined
  const task = meta[TASK_META_KEY]
  if (!isRecord(task) || typeof task.taskId !== 'string') {
    throw new SdkError(SdkErrorCode.InvalidResult, 'The server answered a task without a `taskId`.')
  }
  if (task.taskId.length > MAX_TASK_ID_LENGTH) {
    throw new SdkError(
      SdkErrorCode.InvalidResult,
      `The server answered a task whose id has ${task.taskId.length} characters (at most ${MAX_TASK_ID_LENGTH}).`,
    )
  }
  const hint = task.pollIntervalMs
  return { taskId: task.taskId, pollIntervalMs: typeof hint === 'number' && hint > 0 ? hint : undefined }
}

/** A task's state as `tasks/get` answers it. */
interface TaskState {
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled'
  result?: Record<string, unknown>
  error?: { message?: unknown }
}

const STATUSES = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled'])

const taskStateSchema: StandardSchemaV1<TaskState, TaskState> = {
  '~standard': {
    version: 1,
    vendor: 'toolnexus',
    validate: (value) =>
      isRecord(value) &&
      typeof value.status === 'string' &&
      STATUSES.has(value.status) &&
      (value.result === undefined || isRecord(value.result))
        ? { value: value as unknown as TaskState }
        : { issues: [{ message: 'not a task: `status` must be a known task status.' }] },
  },
}

/**
 * Asks `tasks/get` once: the task's result when it completed, `undefined` while it still runs. A task
 * that failed, was cancelled or waits for input this client cannot give rejects.
 *
 * @example
 * const result = await fetchTaskResult(client, 'task-1', { timeoutMs: 5000 })
 */
async function fetchTaskResult(
  client: Client,
  taskId: string,
  options: { timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<Record<string, unknown> | undefined> {
  const state = await client.request({ method: 'tasks/get', params: { taskId } }, taskStateSchema, {
    timeout: Math.max(1, options.timeoutMs),
    ...(options.signal && { signal: options.signal }),
  })
  switch (state.status) {
    case 'working':
      return undefined
    case 'completed':
      if (state.result === undefined) throw new Error('the task completed without a result')
      return state.result
    case 'failed':
      throw new Error(
        `the task failed: ${typeof state.error?.message === 'string' ? state.error.message : 'no reason given'}`,
      )
    case 'cancelled':
      throw new Error('the task was cancelled')
    case 'input_required':
      throw new Error('the task asks for input, which this client does not answer inside a task')
  }
}

/**
 * Polls a task with `tasks/get` until it settles, from the server's poll hint (bounded) with backoff,
 * and answers its inline result. Past `deadline`, or when `signal` aborts, the task is cancelled with
 * `tasks/cancel` and the call rejects (a timeout as the SDK's own request timeout). With `waitMs`, a task
 * still working after that long is left running and `undefined` answers (the caller comes back for it).
 * `immediate` asks at once, before the first wait (a task polled again later).
 *
 * @example
 * const result = await awaitTask(client, task, { deadline: Date.now() + 60_000, signal })
 */
export async function awaitTask(
  client: Client,
  task: McpTask,
  options: { deadline: number; signal: AbortSignal | undefined; waitMs?: number; immediate?: boolean },
): Promise<Record<string, unknown> | undefined> {
  const { deadline, signal } = options
  const stop = options.waitMs === undefined ? deadline : Math.min(deadline, Date.now() + options.waitMs)
  let delay = clamp(task.pollIntervalMs ?? DEFAULT_POLL_MS)
  let wait = options.immediate === true ? 0 : delay
  try {
    for (;;) {
      await sleep(Math.min(wait, Math.max(0, stop - Date.now())), signal)
      if (Date.now() >= deadline) {
        throw new SdkError(SdkErrorCode.RequestTimeout, `the task ${task.taskId} did not finish in time`)
      }
      const result = await fetchTaskResult(client, task.taskId, { timeoutMs: deadline - Date.now(), signal })
      if (result !== undefined) return result
      if (stop < deadline && Date.now() >= stop) return undefined
      if (wait !== 0) delay = clamp(delay * BACKOFF)
      wait = delay
    }
  } catch (error) {
    if (
      signal?.aborted === true ||
      (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)
    ) {
      await cancelTask(client, task.taskId)
    }
    throw error
  }
}

/** Tells the server to cancel a task (best effort: a server that cannot is not waited for long). */
async function cancelTask(client: Client, taskId: string): Promise<void> {
  await client
    .request({ method: 'tasks/cancel', params: { taskId } }, acknowledgement, { timeout: CANCEL_TIMEOUT_MS })
    .catch(() => undefined)
}

const acknowledgement: StandardSchemaV1<unknown, unknown> = {
  '~standard': { version: 1, vendor: 'toolnexus', validate: (value) => ({ value }) },
}

function clamp(ms: number): number {
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, ms))
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
