import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type InputRequest,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server'
import { ConfigError } from '../errors.js'
import { isRecord } from '../shared/is-record.js'
import { errorMessage } from '../tool/tool-result.js'
import type { Tool } from '../tool/types.js'
import { isTerminal, type ServedTask, type TaskStatus, TaskStore } from './task-store.js'

/** The extension a client declares (in its capabilities' `extensions`) to be served tasks. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks'

// How often a client is told to poll a running task.
const POLL_INTERVAL_MS = 1000
// The JSON-RPC code of a task that could not finish (its deadline, an internal failure).
const TASK_FAILED_CODE = ProtocolErrorCode.InternalError

/** What serving tasks needs on one server instance: the handler's store and who is calling. */
export interface TaskServing {
  store: TaskStore
  /** The caller's identity (worked out on first use): tasks are created for it and found only by it. */
  owner: () => Promise<string>
}

const DEFAULT_MAX_TASKS = 1000
const DEFAULT_TASK_TTL_MS = 60 * 60_000

/**
 * The task store of one handler, from the serve options `maxTasks` and `taskTtlMs`.
 *
 * @example
 * const store = taskStoreFor({ maxTasks: 100 })
 */
export function taskStoreFor(options: { maxTasks?: number; taskTtlMs?: number }): TaskStore {
  const { maxTasks = DEFAULT_MAX_TASKS, taskTtlMs = DEFAULT_TASK_TTL_MS } = options
  if (!(Number.isInteger(maxTasks) && maxTasks >= 1)) {
    throw new ConfigError(`\`maxTasks\` must be a whole number of at least 1; got ${String(maxTasks)}.`, {
      field: 'maxTasks',
    })
  }
  if (!(Number.isInteger(taskTtlMs) && taskTtlMs > 0)) {
    throw new ConfigError(`\`taskTtlMs\` must be a positive whole number; got ${String(taskTtlMs)}.`, {
      field: 'taskTtlMs',
    })
  }
  return new TaskStore({ maxTasks, ttlMs: taskTtlMs })
}

/** How a call of a tool is served: at once, or as a task. */
export type CallMode = 'sync' | 'task'

/**
 * Whether this call of `tool` is served as a task: a `longRunning` tool called by a client that declared
 * the tasks extension in its request. A tool that requires tasks, called by a client without them, is
 * refused with the missing-capability error naming the extension.
 *
 * @example
 * if (callMode(tool, ctx) === 'task') return startTask(serving, { run })
 */
export function callMode(tool: Tool, ctx: ServerContext): CallMode {
  const { longRunning } = tool
  if (longRunning === undefined || longRunning === false) return 'sync'
  if (declaresTasks(ctx)) return 'task'
  if (typeof longRunning === 'object' && longRunning.required === true) throw missingTasks()
  return 'sync'
}

/**
 * Whether `tool` asks its first round of input before its task starts (`longRunning.inputFirst`).
 *
 * @example
 * if (asksBeforeTask(tool)) return firstLeg()
 */
export function asksBeforeTask(tool: Tool): boolean {
  const { longRunning } = tool
  return typeof longRunning === 'object' && longRunning.inputFirst === true
}

/** The deadline of a task of `tool`, in milliseconds (infinite when it has none). */
export function taskTimeoutMs(tool: Tool): number {
  const { longRunning } = tool
  return typeof longRunning === 'object' && longRunning.timeoutMs !== undefined
    ? longRunning.timeoutMs
    : Number.POSITIVE_INFINITY
}

/** Asks the client for one input while a task runs: the task is `input_required` until it is answered. */
export type AskInput = (key: string, request: InputRequest) => Promise<unknown>

/**
 * Creates a task for one call and starts `run` in the background; answers the flat create-task result
 * once the task can be found (so a `tasks/get` right after it resolves). The task completes with what
 * `run` answers; it fails when `run` throws or outlives `timeoutMs`; `tasks/cancel` aborts its signal.
 *
 * @example
 * return startTask(serving, { timeoutMs: 60_000, run: (task, ask) => execute(task.controller.signal) })
 */
export async function startTask(
  serving: TaskServing,
  options: { timeoutMs: number; run: (task: ServedTask, ask: AskInput) => Promise<CallToolResult> },
): Promise<CallToolResult> {
  const task = serving.store.create(await serving.owner())
  if (task === undefined) {
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'Too many tasks running: try again later.')
  }
  const ask: AskInput = (key, request) =>
    new Promise((resolve) => {
      task.inputRequests.set(key, { request, answer: resolve })
      setStatus(task, 'input_required')
    })
  const timer = Number.isFinite(options.timeoutMs)
    ? setTimeout(() => {
        fail(task, `The task did not finish within ${options.timeoutMs} ms.`)
      }, options.timeoutMs)
    : undefined
  // A deadline timer must not keep a process alive on its own.
  ;(timer as { unref?: () => void } | undefined)?.unref?.()
  Promise.resolve()
    .then(() => options.run(task, ask))
    .then(
      (result) => {
        if (isTerminal(task.status)) return
        task.result = result
        setStatus(task, 'completed')
      },
      (error: unknown) => fail(task, errorMessage(error)),
    )
    .finally(() => clearTimeout(timer))
  return { resultType: 'task', ...taskFields(task) } as unknown as CallToolResult
}

/**
 * Adds `tasks/get`, `tasks/update` and `tasks/cancel` to a server. Each is refused with the
 * missing-capability error unless the request declares the tasks extension, and answers only for a
 * task of this caller: an unknown id, an expired one and another caller's read alike (invalid params).
 *
 * @example
 * serveTaskMethods(server, { store, owner: 'caller-1' })
 */
export function serveTaskMethods(server: Server, serving: TaskServing): void {
  const find = async (params: TaskParams, ctx: ServerContext): Promise<ServedTask> => {
    if (!declaresTasks(ctx)) throw missingTasks()
    const task = serving.store.find(params.taskId, await serving.owner())
    if (task === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Unknown task id.')
    return task
  }
  server.setRequestHandler('tasks/get', { params: taskParams }, async (params, ctx) =>
    detailedTask(await find(params, ctx)),
  )
  server.setRequestHandler('tasks/update', { params: taskParams }, async (params, ctx) => {
    const task = await find(params, ctx)
    // The SDK lifts well-formed responses out of the params; only keys the task asked for count, each
    // once, and any other key is ignored.
    const responses: Record<string, unknown> = ctx.mcpReq.inputResponses ?? {}
    for (const [key, response] of Object.entries(responses)) {
      const pending = task.inputRequests.get(key)
      if (pending === undefined) continue
      task.inputRequests.delete(key)
      pending.answer(response)
    }
    if (task.status === 'input_required' && task.inputRequests.size === 0) setStatus(task, 'working')
    return {}
  })
  server.setRequestHandler('tasks/cancel', { params: taskParams }, async (params, ctx) => {
    const task = await find(params, ctx)
    if (!isTerminal(task.status)) {
      setStatus(task, 'cancelled')
      task.controller.abort(new Error('the task was cancelled'))
      for (const pending of task.inputRequests.values()) pending.answer({ action: 'cancel' })
      task.inputRequests.clear()
    }
    return {}
  })
}

/**
 * Whether the request's client declared the tasks extension, in the capabilities its 2026-07-28
 * envelope carries.
 *
 * @example
 * declaresTasks(ctx) // true for a client with { extensions: { 'io.modelcontextprotocol/tasks': {} } }
 */
function declaresTasks(ctx: ServerContext): boolean {
  const envelope: Record<string, unknown> | undefined = ctx.mcpReq.envelope
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY]
  const extensions = isRecord(capabilities) ? capabilities.extensions : undefined
  return isRecord(extensions) && isRecord(extensions[TASKS_EXTENSION])
}

interface TaskParams {
  taskId: string
}

/** The params of the task methods: a string `taskId`. */
const taskParams: StandardSchemaV1<TaskParams, TaskParams> = {
  '~standard': {
    version: 1,
    vendor: 'toolnexus',
    validate: (value) =>
      isRecord(value) && typeof value.taskId === 'string'
        ? { value: value as unknown as TaskParams }
        : { issues: [{ message: '`taskId` must be a string.', path: ['taskId'] }] },
  },
}

function missingTasks(): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    `This call needs the ${TASKS_EXTENSION} extension: declare it in the client's capabilities.`,
  )
}

function setStatus(task: ServedTask, status: TaskStatus): void {
  task.status = status
  task.lastUpdatedAt = Date.now()
}

function fail(task: ServedTask, message: string): void {
  if (isTerminal(task.status)) return
  task.error = { code: TASK_FAILED_CODE, message }
  setStatus(task, 'failed')
  task.controller.abort(new Error(message))
}

function taskFields(task: ServedTask): Record<string, unknown> {
  return {
    taskId: task.id,
    status: task.status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttlMs: task.ttlMs,
    pollIntervalMs: POLL_INTERVAL_MS,
  }
}

/** A task as `tasks/get` answers it: its fields, with its result, error or open input requests inline. */
function detailedTask(task: ServedTask): Record<string, unknown> {
  const detailed = taskFields(task)
  if (task.status === 'completed' && task.result !== undefined) detailed.result = task.result
  if (task.status === 'failed' && task.error !== undefined) detailed.error = task.error
  if (task.status === 'input_required') {
    detailed.inputRequests = Object.fromEntries(
      Array.from(task.inputRequests, ([key, pending]) => [key, pending.request]),
    )
  }
  return detailed
}
