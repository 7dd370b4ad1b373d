import type { ToolContext, ToolInputRound, ToolLogEntry, ToolProgress } from './types.js'

/**
 * The context a tool gets: the call's id, its deadline, and a signal of its own that aborts on the
 * caller's abort or at the deadline, made when the tool first reads it.
 */
export class CallContext implements ToolContext {
  // A class with the signal as a getter, not an object literal with one: V8 makes the literal much more
  // slowly, on a path run for every tool call.
  readonly toolCallId?: string
  readonly idempotencyKey?: string
  readonly onProgress?: (progress: ToolProgress) => void
  readonly onLog?: (entry: ToolLogEntry) => void
  readonly inputRound?: ToolInputRound
  readonly timeoutMs: number
  readonly #controller: LazyAbortController
  /** Whether the caller gave a signal, so that more than the deadline can abort the call. */
  readonly #callerCanAbort: boolean

  constructor(
    toolCallId: string | undefined,
    timeoutMs: number,
    controller: LazyAbortController,
    callerCanAbort: boolean,
    idempotencyKey?: string,
    reports?: Pick<ToolContext, 'onProgress' | 'onLog' | 'inputRound'>,
  ) {
    if (toolCallId !== undefined) this.toolCallId = toolCallId
    if (idempotencyKey !== undefined) this.idempotencyKey = idempotencyKey
    // Only a caller that listens (an MCP gateway) gives these; every other call skips both.
    if (reports?.onProgress !== undefined) this.onProgress = reports.onProgress
    if (reports?.onLog !== undefined) this.onLog = reports.onLog
    if (reports?.inputRound !== undefined) this.inputRound = reports.inputRound
    this.timeoutMs = timeoutMs
    this.#controller = controller
    this.#callerCanAbort = callerCanAbort
  }

  get signal(): AbortSignal {
    return this.#controller.signal
  }

  get signalBeyondDeadline(): AbortSignal | undefined {
    return this.#callerCanAbort ? this.signal : undefined
  }
}

/**
 * The signal to hand to a client that enforces the call's `timeoutMs` on its own (the MCP SDK does): the
 * call's signal when the caller can abort the call, else `undefined`, because then only the deadline could
 * abort it. For a context not made by `runTool`, its `signal`.
 *
 * @example
 * await client.callTool(params, schema, { timeout: context.timeoutMs, signal: signalBeyondDeadline(context) })
 */
export function signalBeyondDeadline(context: ToolContext): AbortSignal | undefined {
  // Not reading the signal when only the deadline could abort spares an AbortController per call.
  return context instanceof CallContext ? context.signalBeyondDeadline : context.signal
}

/**
 * An `AbortController` made only when its signal is first read; aborting it before that is remembered.
 */
export class LazyAbortController {
  // Most tools never read their signal, and a controller made for every call adds up on the hot path.
  #controller: AbortController | undefined
  #aborted = false
  #reason: unknown

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController()
      if (this.#aborted) this.#controller.abort(this.#reason)
    }
    return this.#controller.signal
  }

  abort(reason: unknown): void {
    if (this.#aborted) return
    this.#aborted = true
    this.#reason = reason
    this.#controller?.abort(reason)
  }
}
