// A client's run as a durable run: handed to the engine as JSON data, done by the live worker (this
// client and the run's toolkit) in whichever process the engine runs it, its events passed to the caller
// when that is this process.

import type { MessageFormat, RunEvent, RunResult } from '../contracts/run-types.js'
import type { DurableRunInput, DurableRunner } from '../durable/durable-runner.js'
import { ConfigError } from '../errors.js'
import type { Toolkit } from '../toolkit/create-toolkit.js'

/** What a durable run records as its input: what another process can rebuild the run from. */
export interface DurablePayload<Message> {
  prompt: string | Message[]
  history: Message[]
  system: string | undefined
  /** A resumed run: the suspended state and the answers. */
  resume?: { state: unknown; approvals: unknown }
  /** The run's id as the loop knows it (a resumed run takes its state's). */
  runId?: string
}

/** The caller of a run, in the process that runs it: gets its events, may abort it. */
export interface DurableListener<Message> {
  push(event: RunEvent<Message>): void
  signal: AbortSignal | undefined
  stream: boolean
}

const RUN_ID = /^[\x21-\x7e]{1,256}$/

/**
 * Checks a run id: 1 to 256 printable ASCII characters without spaces, so that it can start an
 * idempotency key that goes out as an HTTP header.
 *
 * @example
 * checkRunId('order-42') // ok
 */
export function checkRunId(runId: unknown): asserts runId is string | undefined {
  if (runId === undefined) return
  if (typeof runId !== 'string' || !RUN_ID.test(runId)) {
    throw new ConfigError(
      '`runId` must be 1 to 256 printable ASCII characters without spaces, like "order-42".',
      { field: 'runId' },
    )
  }
}

/**
 * Checks the `durable` option: an engine like `createDbosRunner(...)` from `toolnexus/dbos`.
 *
 * @example
 * const durable = readDurable(await createDbosRunner({ connectionString, appVersion: '1' }))
 */
export function readDurable(durable: unknown): DurableRunner | undefined {
  if (durable === undefined) return undefined
  const runner = durable as Partial<DurableRunner> | null
  if (typeof runner?.run !== 'function' || typeof runner.serve !== 'function') {
    throw new ConfigError(
      '`durable` must be a durable runner, like await createDbosRunner({ connectionString, appVersion }) from toolnexus/dbos.',
      { field: 'durable' },
    )
  }
  return runner as DurableRunner
}

/**
 * The name of the live worker a run needs: the client's kind and model, and the toolkit by its tools'
 * names — what every process configured the same way has.
 *
 * @example
 * workerName('ai-sdk', 'gpt-5-mini', toolkit) // 'ai-sdk gpt-5-mini [lookup,refund]'
 */
export function workerName(kind: MessageFormat, model: string, toolkit: Toolkit | undefined): string {
  const names = toolkit === undefined ? [] : toolkit.tools().map((tool) => tool.name)
  return `${kind} ${model} [${names.sort().join(',')}]`
}

/**
 * Runs the durable run `runId` through `runner` and yields its events (`finish` last) when this process
 * runs it, or only `finish` when the engine hands back the recorded result.
 *
 * @example
 * const events = runDurably({ runner, runId: 'order-42', worker, payload, listeners, stream: false })
 */
export async function* runDurably<Message>(options: {
  runner: DurableRunner
  runId: string
  worker: string
  payload: DurablePayload<Message>
  listeners: Map<string, DurableListener<Message>>
  stream: boolean
  signal: AbortSignal | undefined
}): AsyncGenerator<RunEvent<Message>, RunResult<Message>> {
  const { runner, runId, worker, payload, listeners, stream, signal } = options
  const input: DurableRunInput = { runId, worker, payload }
  if (!stream) {
    if (signal === undefined) return (await runner.run(input)) as RunResult<Message>
    listeners.set(runId, { push: () => {}, signal, stream: false })
    try {
      return (await runner.run(input)) as RunResult<Message>
    } finally {
      listeners.delete(runId)
    }
  }
  const queue: Array<RunEvent<Message>> = []
  let wake: (() => void) | undefined
  let finished = false
  listeners.set(runId, {
    push: (event) => {
      queue.push(event)
      wake?.()
    },
    signal,
    stream: true,
  })
  const running = runner.run(input).then(
    (result) => ({ result: result as RunResult<Message> }),
    (error: unknown) => ({ error }),
  )
  void running.then(() => wake?.())
  let outcome: { result: RunResult<Message> } | { error: unknown } | undefined
  try {
    while (true) {
      const event = queue.shift()
      if (event !== undefined) {
        if (event.type === 'finish') finished = true
        yield event
        continue
      }
      if (outcome !== undefined) break
      const settled = await Promise.race([
        running,
        new Promise<undefined>((resolve) => {
          wake = () => resolve(undefined)
        }),
      ])
      wake = undefined
      if (settled !== undefined) outcome = settled
    }
  } finally {
    listeners.delete(runId)
  }
  if ('error' in outcome) throw outcome.error
  if (!finished) yield { type: 'finish', result: outcome.result }
  return outcome.result
}
