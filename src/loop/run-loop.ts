import type { RunTelemetry } from '../contracts/run-telemetry.js'
import type { RunEvent, RunResult } from '../contracts/run-types.js'
import type { ModelTurn } from '../contracts/transport.js'
import type { LoopInput } from './loop-input.js'
import { runQuietly } from './run-quietly.js'
import { RunScope } from './run-scope.js'
import { finishedResult, goesOn, startRun } from './start-run.js'
import { takeTurn } from './take-turn.js'

/**
 * The tool-calling loop, transport-agnostic, as a generator of run events (`text-delta`, `tool-call`,
 * `tool-result`, `step-end`; `finish` last, carrying the result, which is also the generator's return
 * value; in `generate` mode only the return value, from {@link runQuietly}). Each turn calls the model with the toolkit's tools
 * and the system prompt; every tool call it makes is answered exactly once, in call order; the loop ends
 * when the model calls no tool or after `maxTurns` model calls. Rejects with an `AbortError` on abort.
 *
 * @example
 * for await (const event of runLoop({ transport, settings, history: [], prompt: 'Hi', toolkit, signal: undefined, mode: 'stream' })) {
 *   if (event.type === 'text-delta') process.stdout.write(event.text)
 * }
 */
export async function* runLoop<Message>(
  input: LoopInput<Message>,
): AsyncGenerator<RunEvent<Message>, RunResult<Message>> {
  // `run` wants only the result: events are built and yielded for streams alone.
  if (input.mode !== 'stream') return await runQuietly(input)
  const scope = new RunScope(input.signal, input.settings.timeoutMs, input.stop)
  let completed = false
  let trace: RunTelemetry | undefined
  try {
    const run = await startRun(input, scope, true)
    trace = run.trace
    while (true) {
      const suspended = yield* takeTurn(run)
      // The turn is read from the run, not kept in this frame: it is let go when the next one is asked for.
      const { usage } = run.last as ModelTurn<Message>
      if (suspended !== undefined) {
        completed = true
        trace?.end(suspended)
        yield { type: 'step-end', turn: run.turn, usage }
        yield { type: 'finish', result: suspended }
        return suspended
      }
      yield { type: 'step-end', turn: run.turn, usage }
      if (!goesOn(run)) break
    }
    const result = finishedResult(run)
    completed = true
    trace?.end(result)
    yield { type: 'finish', result }
    return result
  } catch (error) {
    trace?.fail(error)
    throw error
  } finally {
    scope.dispose({ completed })
    // A stream whose reader left early ends here without a throw.
    if (!completed) trace?.fail(scope.abortError())
  }
}
