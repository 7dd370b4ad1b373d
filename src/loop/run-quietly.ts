import type { RunTelemetry } from '../contracts/run-telemetry.js'
import type { RunResult } from '../contracts/run-types.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import type { LoopInput } from './loop-input.js'
import { RunScope } from './run-scope.js'
import { finishedResult, goesOn, startRun } from './start-run.js'
import { takeTurnQuietly } from './take-turn-quietly.js'

/**
 * The tool-calling loop for a run that streams nothing (`generate` mode, durable or not): the same run as
 * `runLoop`'s, as one plain async function. No generator stands between the caller and the turns, and no
 * event is built, since nobody listens.
 *
 * @example
 * const result = await runQuietly({ transport, settings, history: [], prompt: 'Hi', toolkit, signal: undefined, mode: 'generate' })
 */
export async function runQuietly<Message>(input: LoopInput<Message>): Promise<RunResult<Message>> {
  const scope = new RunScope({
    signal: input.signal,
    timeoutMs: input.settings.timeoutMs,
    stop: input.stop,
  })
  let completed = false
  let trace: RunTelemetry | undefined
  try {
    const started = startRun(input, scope, false)
    const run = isPromiseLike(started) ? await started : started
    trace = run.trace
    while (true) {
      const suspended = await takeTurnQuietly(run)
      if (suspended !== undefined) {
        completed = true
        trace?.end(suspended)
        return suspended
      }
      if (!goesOn(run)) break
    }
    const result = finishedResult(run)
    completed = true
    trace?.end(result)
    return result
  } catch (error) {
    trace?.fail(error)
    throw error
  } finally {
    scope.dispose({ completed })
    if (!completed) trace?.fail(scope.abortError())
  }
}
