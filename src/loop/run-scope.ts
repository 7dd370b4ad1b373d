import { AbortError } from '../errors.js'

/**
 * One run's cancellation: the caller's signal, the run's deadline and an early stop (a stream consumer
 * that left) all abort the run, which reaches the model call and every tool through one internal signal.
 * `race` makes any await give up at once on abort, so nothing that ignores its signal can hold the run.
 *
 * @example
 * const scope = new RunScope(signal, 30_000, undefined)
 * try { await scope.race(model.doGenerate({ prompt, abortSignal: scope.outsideSignal })) } finally { scope.dispose({ completed: true }) }
 */
export class RunScope {
  // Made when first read: most runs hand it only to tools that never look at it, and Node makes an
  // AbortController in microseconds. Whether the run was aborted is `#error`, which costs nothing to read.
  #controller: AbortController | undefined
  // Only a run with a signal, a deadline or a stream consumer can be aborted from outside; the others
  // skip the racing entirely, which keeps the per-turn path as lean as a bare loop, and hold no more than
  // these three fields while they wait.
  readonly #outside: OutsideAbort | undefined
  #error: AbortError | undefined

  /**
   * Positional, not an options object: one is made for every run.
   *
   * @param signal the caller's signal
   * @param timeoutMs the run's deadline
   * @param stop aborted when the consumer of a stream leaves before the run ends
   */
  constructor(signal: AbortSignal | undefined, timeoutMs: number | undefined, stop: AbortSignal | undefined) {
    if (signal !== undefined || timeoutMs !== undefined || stop !== undefined) {
      this.#outside = new OutsideAbort(this, signal, timeoutMs, stop)
      // A signal aborted already aborted the run while the line above ran, before `#outside` was set.
      if (this.#error !== undefined) this.#outside.reject(this.#error)
    }
  }

  /** The signal handed to every tool (aborted too when a run fails midway). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController()
      if (this.#error !== undefined) this.#controller.abort(this.#error)
    }
    return this.#controller.signal
  }

  /**
   * The run's signal when something outside can abort the run (the caller's signal, a deadline, a stream
   * consumer), else `undefined`. The model call gets this, and so do tool calls when no tool hook could
   * end the run while they run: a run that nothing can abort then makes no AbortController at all.
   */
  get outsideSignal(): AbortSignal | undefined {
    return this.#outside === undefined ? undefined : this.signal
  }

  /** Aborts the run with this error (the first abort wins). */
  abort(error: AbortError): void {
    if (this.#error !== undefined) return
    this.#error = error
    this.#outside?.reject(error)
    this.#controller?.abort(error)
  }

  /** The error the run rejects with once aborted. */
  abortError(): AbortError {
    return this.#error ?? new AbortError('The run was aborted.')
  }

  /** Throws the abort error when the run was aborted. */
  check(): void {
    if (this.#error !== undefined) throw this.#error
  }

  /** Settles like `promise`, or rejects with the abort error as soon as the run is aborted. */
  race<T>(promise: T | PromiseLike<T>): Promise<T> {
    if (this.#error !== undefined) return Promise.reject(this.#error)
    if (this.#outside === undefined) return Promise.resolve(promise)
    return Promise.race([promise, this.#outside.aborted])
  }

  /**
   * Ends the run: stops its deadline and, unless it completed (when nothing is left running), aborts
   * whatever is still running — tools of a run that failed midway.
   */
  dispose(options: { completed: boolean }): void {
    this.#outside?.dispose()
    if (!options.completed) this.abort(new AbortError('The run has ended.'))
  }
}

/** What aborts a run from outside: the caller's signal, the run's deadline, a stream consumer that left. */
class OutsideAbort {
  /** Rejects with the abort error once the run is aborted. */
  readonly aborted: Promise<never>
  reject: (error: AbortError) => void = () => {}
  readonly #signal: AbortSignal | undefined
  readonly #onAbort: (() => void) | undefined
  readonly #stop: AbortSignal | undefined
  readonly #onStop: (() => void) | undefined
  readonly #timer: ReturnType<typeof setTimeout> | undefined

  constructor(
    scope: RunScope,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    stop: AbortSignal | undefined,
  ) {
    this.aborted = new Promise<never>((_, reject) => {
      this.reject = reject
    })
    // Nobody may be racing when the abort lands; the rejection is observed through `race` or `check`.
    this.aborted.catch(() => {})
    this.#signal = signal
    if (signal !== undefined) {
      const onAbort = () => scope.abort(new AbortError('The run was aborted.', { cause: signal.reason }))
      this.#onAbort = onAbort
      if (signal.aborted) onAbort()
      else signal.addEventListener('abort', onAbort, { once: true })
    }
    this.#stop = stop
    if (stop !== undefined) {
      const onStop = () =>
        scope.abort(
          new AbortError('The run was stopped: its stream was closed before the run finished.', {
            reason: 'stream-closed',
          }),
        )
      this.#onStop = onStop
      stop.addEventListener('abort', onStop, { once: true })
    }
    this.#timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(
            () =>
              scope.abort(
                new AbortError(`The run timed out after ${timeoutMs} ms.`, { reason: 'timeout', timeoutMs }),
              ),
            timeoutMs,
          )
  }

  /** Stops the deadline and stops listening. */
  dispose(): void {
    clearTimeout(this.#timer)
    if (this.#onAbort !== undefined) this.#signal?.removeEventListener('abort', this.#onAbort)
    if (this.#onStop !== undefined) this.#stop?.removeEventListener('abort', this.#onStop)
  }
}
