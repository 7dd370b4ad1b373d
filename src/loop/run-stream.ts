import type { RunEvent, RunResult } from '../contracts/run-types.js'
import { ConfigError } from '../errors.js'
import {
  toUIMessageStreamResponse,
  type UIMessageStreamResponseInit,
} from '../ui/to-ui-message-stream-response.js'

/**
 * What `client.stream` returns: the run's events as an async iterable (`finish` last), the result as a
 * promise, and the AI SDK UI message stream response for `useChat`. The run starts at once; events wait
 * in a buffer until read. Leaving the iteration early (`break`) stops the run.
 *
 * @example
 * const stream = client.stream('What is the weather in Chennai?', { toolkit })
 * for await (const event of stream) if (event.type === 'text-delta') process.stdout.write(event.text)
 * const { usage } = await stream.result
 */
export interface RunStream<Message> extends AsyncIterable<RunEvent<Message>> {
  /** The run's result; rejects like `client.run` would. */
  readonly result: Promise<RunResult<Message>>
  /** The run as an AI SDK UI message stream (SSE) `Response`, for a route handler that serves `useChat`. */
  toUIMessageStreamResponse(init?: UIMessageStreamResponseInit): Response
}

/**
 * Starts a run's event generator and buffers it for one reader.
 *
 * @example
 * const stream = createRunStream((stop) => runLoop({ ...input, stop, mode: 'stream' }))
 */
export function createRunStream<Message>(
  start: (stop: AbortSignal) => AsyncGenerator<RunEvent<Message>, RunResult<Message>>,
): RunStream<Message> {
  return new BufferedRunStream(start)
}

class BufferedRunStream<Message> implements RunStream<Message> {
  readonly result: Promise<RunResult<Message>>
  readonly #stop = new AbortController()
  readonly #events: Array<RunEvent<Message>> = []
  #finished = false
  #failure: { error: unknown } | undefined
  #wake: (() => void) | undefined
  #claimed = false

  constructor(start: (stop: AbortSignal) => AsyncGenerator<RunEvent<Message>, RunResult<Message>>) {
    this.result = this.#pump(start)
    // Readers of the events alone must not see an unhandled rejection; `result` still rejects when awaited.
    this.result.catch(() => {})
  }

  async #pump(
    start: (stop: AbortSignal) => AsyncGenerator<RunEvent<Message>, RunResult<Message>>,
  ): Promise<RunResult<Message>> {
    try {
      const events = start(this.#stop.signal)
      while (true) {
        const next = await events.next()
        if (next.done === true) return next.value
        this.#events.push(next.value)
        this.#notify()
      }
    } catch (error) {
      this.#failure = { error }
      throw error
    } finally {
      this.#finished = true
      this.#notify()
    }
  }

  #notify(): void {
    const wake = this.#wake
    this.#wake = undefined
    wake?.()
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<RunEvent<Message>> {
    if (this.#claimed) {
      throw new ConfigError(
        'A run stream can be read once: iterate it or call toUIMessageStreamResponse(), not both, and not twice.',
      )
    }
    this.#claimed = true
    let index = 0
    try {
      while (true) {
        if (index < this.#events.length) {
          const event = this.#events[index] as RunEvent<Message>
          index++
          yield event
          continue
        }
        // Everything read so far can go: the buffer only has to hold what the reader has not seen.
        this.#events.length = 0
        index = 0
        if (this.#finished) {
          if (this.#failure !== undefined) throw this.#failure.error
          return
        }
        await new Promise<void>((resolve) => {
          this.#wake = resolve
        })
      }
    } finally {
      if (!this.#finished) this.#stop.abort()
    }
  }

  toUIMessageStreamResponse(init?: UIMessageStreamResponseInit): Response {
    return toUIMessageStreamResponse(this, init)
  }
}
