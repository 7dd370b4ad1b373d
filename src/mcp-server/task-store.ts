import type { CallToolResult, InputRequest } from '@modelcontextprotocol/server'

/** Where a task is: running, waiting for the client's input, or done one of three ways. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled'

/** One long-running call served as a task, as this process keeps it. */
export interface ServedTask {
  /** Unguessable (128 random bits). */
  readonly id: string
  /** Who created it: only the same caller may read, answer or cancel it. */
  readonly owner: string
  status: TaskStatus
  readonly createdAt: number
  lastUpdatedAt: number
  readonly ttlMs: number
  /** The tool's answer, once `completed`. */
  result?: CallToolResult
  /** Why it could not finish, once `failed`. */
  error?: { code: number; message: string }
  /** What the task waits for while `input_required`, by key; each key answered once. */
  readonly inputRequests: Map<string, { request: InputRequest; answer: (response: unknown) => void }>
  /** Aborted when the task is cancelled, expires or runs past its deadline. */
  readonly controller: AbortController
}

/** How many tasks a store keeps, and for how long. */
export interface TaskStoreLimits {
  /** Tasks kept at once; past it the oldest finished one is dropped, and with none finished a new one is refused. */
  maxTasks: number
  /** Milliseconds a task is kept from its creation; a task still running then is cancelled. */
  ttlMs: number
}

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled'])

/**
 * Whether a task is done (completed, failed or cancelled).
 *
 * @example
 * isTerminal('working') // false
 */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status)
}

/**
 * The tasks of one served toolkit, in this process: bounded in number (`maxTasks`) and in time (`ttlMs`
 * from creation), swept on each use (no timer, so an idle process keeps nothing scheduled). A task is
 * found only by its id together with the caller that created it: another caller's id reads as unknown,
 * so nobody can tell whether it exists.
 *
 * @example
 * const store = new TaskStore({ maxTasks: 1000, ttlMs: 3_600_000 })
 * const task = store.create('caller-1')
 * store.find(task.id, 'caller-2') // undefined
 */
export class TaskStore {
  readonly #tasks = new Map<string, ServedTask>()
  readonly #limits: TaskStoreLimits

  constructor(limits: TaskStoreLimits) {
    this.#limits = limits
  }

  /** A new working task for `owner`, or `undefined` when the store is full of running tasks. */
  create(owner: string, now = Date.now()): ServedTask | undefined {
    this.#sweep(now)
    if (this.#tasks.size >= this.#limits.maxTasks && !this.#dropOldestFinished()) return undefined
    const task: ServedTask = {
      id: randomTaskId(),
      owner,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.#limits.ttlMs,
      inputRequests: new Map(),
      controller: new AbortController(),
    }
    this.#tasks.set(task.id, task)
    return task
  }

  /** The task with this id created by this owner; anything else (unknown, expired, another's) is `undefined`. */
  find(id: unknown, owner: string, now = Date.now()): ServedTask | undefined {
    this.#sweep(now)
    if (typeof id !== 'string') return undefined
    const task = this.#tasks.get(id)
    return task !== undefined && task.owner === owner ? task : undefined
  }

  /** Tasks kept now (running or finished). */
  get size(): number {
    return this.#tasks.size
  }

  #sweep(now: number): void {
    for (const [id, task] of this.#tasks) {
      if (now - task.createdAt < task.ttlMs) continue
      this.#tasks.delete(id)
      if (!isTerminal(task.status)) {
        task.status = 'cancelled'
        task.controller.abort(new Error('the task expired'))
      }
    }
  }

  /** Drops the finished task updated longest ago; false when every task is still running. */
  #dropOldestFinished(): boolean {
    let oldest: ServedTask | undefined
    for (const task of this.#tasks.values()) {
      if (isTerminal(task.status) && (oldest === undefined || task.lastUpdatedAt < oldest.lastUpdatedAt)) {
        oldest = task
      }
    }
    if (oldest === undefined) return false
    this.#tasks.delete(oldest.id)
    return true
  }
}

/** 128 random bits, base64url: an id no caller can guess. */
function randomTaskId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replaceAll('=', '')
}
