// A served call whose 2025-era source asked its caller a question mid-call cannot be run again from the
// answer (the source waits for it on its session), so where the caller answers in a later request
// (2026-07-28), the call is held in this process between the two, under an id its sealed state names.

import type { ToolInputRequest } from '../tool/types.js'

/** The most calls one handler holds at once; past it a call's question is not held but refused. */
const MAX_HELD = 1000
/** How long a call is held for its caller's answer (the sealed state's own lifetime). */
const HELD_MS = 10 * 60_000

/** What a held call's run came to, or that it has questions waiting. */
export type HeldOutcome<Value> =
  | { kind: 'done'; value: Value }
  | { kind: 'failed'; error: unknown }
  | { kind: 'asked'; requests: Record<string, ToolInputRequest> }

interface Hold {
  keys: Set<string>
  answers: Record<string, unknown>
  resolve: (answers: Record<string, unknown>) => void
  reject: (error: unknown) => void
}

/**
 * One served call that can be held across requests: its run, the questions it is waiting on (keyed as
 * they were asked), and its own abort signal, which follows the request answering it at the time.
 *
 * @example
 * const run = new HeldRun<ToolResult>()
 * run.start(() => toolkit.execute(name, args, { signal: run.signal, inputRound }))
 * const outcome = await run.next()
 */
export class HeldRun<Value> {
  readonly #controller = new AbortController()
  readonly #queue = new Map<string, { request: ToolInputRequest; hold: Hold }>()
  #wake: (() => void) | undefined
  #running: Promise<HeldOutcome<Value>> | undefined
  #unfollow: (() => void) | undefined

  /** The rounds this call has asked so far. */
  rounds: number

  constructor(rounds = 0) {
    this.rounds = rounds
  }

  /** Aborted when the call is cancelled, or the request it follows is. */
  get signal(): AbortSignal {
    return this.#controller.signal
  }

  start(run: () => Promise<Value>): void {
    this.#running = run().then(
      (value): HeldOutcome<Value> => ({ kind: 'done', value }),
      (error: unknown): HeldOutcome<Value> => ({ kind: 'failed', error }),
    )
  }

  /** Waits for answers to `requests`; a key already waiting makes the round fail. */
  hold(requests: Record<string, ToolInputRequest>): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const entries = Object.entries(requests)
      if (entries.some(([key]) => this.#queue.has(key))) {
        reject(new Error('The same input request was asked twice at once.'))
        return
      }
      const hold: Hold = { keys: new Set(Object.keys(requests)), answers: {}, resolve, reject }
      for (const [key, request] of entries) this.#queue.set(key, { request, hold })
      this.#wake?.()
    })
  }

  /** Answers the waiting questions `responses` has a key of; the others keep waiting. */
  answer(responses: Record<string, unknown>): void {
    for (const [key, response] of Object.entries(responses)) {
      const waiting = this.#queue.get(key)
      if (waiting === undefined) continue
      this.#queue.delete(key)
      waiting.hold.answers[key] = response
      waiting.hold.keys.delete(key)
      if (waiting.hold.keys.size === 0) waiting.hold.resolve(waiting.hold.answers)
    }
  }

  /** The run's end, or its waiting questions as soon as there are any (at once when some wait). */
  async next(): Promise<HeldOutcome<Value>> {
    const waiting = (): HeldOutcome<Value> => ({
      kind: 'asked',
      requests: Object.fromEntries(Array.from(this.#queue, ([key, { request }]) => [key, request])),
    })
    if (this.#queue.size > 0 || this.#running === undefined) return waiting()
    const asked = new Promise<HeldOutcome<Value>>((resolve) => {
      this.#wake = () => resolve(waiting())
    })
    try {
      return await Promise.race([this.#running, asked])
    } finally {
      this.#wake = undefined
    }
  }

  /** Follows `signal` (the request answering the call now): when it aborts, the call is cancelled. */
  follow(signal: AbortSignal | undefined): void {
    this.#unfollow?.()
    this.#unfollow = undefined
    if (signal === undefined) return
    if (signal.aborted) {
      this.cancel(signal.reason)
      return
    }
    const onAbort = (): void => this.cancel(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    this.#unfollow = () => signal.removeEventListener('abort', onAbort)
  }

  /** Cancels the call: its signal aborts and every waiting question fails. */
  cancel(reason: unknown): void {
    this.follow(undefined)
    this.#controller.abort(reason)
    for (const { hold } of this.#queue.values()) hold.reject(reason)
    this.#queue.clear()
  }
}

/**
 * The calls of one handler held between requests, each under a random id for ten minutes at most (then
 * cancelled), a thousand at most.
 *
 * @example
 * const id = held.park(run)
 * const again = held.take(id)
 */
export class HeldCalls {
  readonly #held = new Map<string, { run: HeldRun<unknown>; timer: ReturnType<typeof setTimeout> }>()

  /** Holds `run` until it is taken; `undefined` when too many calls are held. */
  park(run: HeldRun<unknown>): string | undefined {
    if (this.#held.size >= MAX_HELD) return undefined
    run.follow(undefined)
    const id = crypto.randomUUID()
    const timer = setTimeout(() => {
      this.#held.delete(id)
      run.cancel(new Error('The caller did not answer in time.'))
    }, HELD_MS)
    // A held call must not keep a process alive on its own.
    ;(timer as { unref?: () => void }).unref?.()
    this.#held.set(id, { run, timer })
    return id
  }

  /** The call held under `id`, taken out (so that it is resumed once), or `undefined`. */
  take(id: string): HeldRun<unknown> | undefined {
    const held = this.#held.get(id)
    if (held === undefined) return undefined
    this.#held.delete(id)
    clearTimeout(held.timer)
    return held.run
  }
}
