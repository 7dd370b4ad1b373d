import type { RunTelemetry } from '../contracts/run-telemetry.js'
import type { RunResult } from '../contracts/run-types.js'
import type { ModelTurn } from '../contracts/transport.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import { answerCallsQuietly, type TurnAnswers } from './answer-calls.js'
import { modelTurn, retryTurn } from './call-model.js'
import type { LoopInput } from './loop-input.js'
import { RunScope } from './run-scope.js'
import { finishedResult, goesOn, startRun } from './start-run.js'
import {
  answeredTurn,
  keyCalls,
  modelCallOptions,
  nextRequest,
  resumedCalls,
  type TurnCalls,
  turnCallsOf,
} from './turn-steps.js'

/**
 * The tool-calling loop for a run that streams nothing (`generate` mode, durable or not): the same run as
 * `runLoop`'s, as one plain async function. No generator stands between the caller and the turns, and no
 * event is built, since nobody listens. Each turn takes the same steps as a stream's ({@link takeTurn}),
 * in this function's own frame: a plain turn awaits the model call and, of its tool calls, only those
 * whose answer is still to come (a tool that answers synchronously is recorded at once).
 *
 * @example
 * const result = await runQuietly({ transport, settings, history: [], prompt: 'Hi', toolkit, signal: undefined, mode: 'generate' })
 */
export async function runQuietly<Message>(input: LoopInput<Message>): Promise<RunResult<Message>> {
  const scope = new RunScope(input.signal, input.settings.timeoutMs, input.stop)
  let completed = false
  let trace: RunTelemetry | undefined
  try {
    const started = startRun(input, scope, false)
    const run = isPromiseLike(started) ? await started : started
    trace = run.trace
    let result: RunResult<Message> | undefined
    while (true) {
      // A turn's values live in these, declared (so cleared) before its model call: a value an async
      // frame sets after an await stays in it, with all it reaches, until set again — here, through the
      // whole of the next model call, which is where a run spends its life.
      let turnCalls: TurnCalls | Promise<TurnCalls>
      let answers: TurnAnswers | Promise<TurnAnswers> | undefined
      if (run.resumed !== undefined) turnCalls = resumedCalls(run)
      else {
        const next = nextRequest(run)
        const request = isPromiseLike(next) ? await next : next
        let last: ModelTurn<Message>
        if (input.durable === undefined) {
          // The first attempt in this frame; a failure goes on as `modelTurn`'s retries would.
          const { transport } = run
          try {
            // A transport that splits its call hands over the SDK's own promise, with no frame around it.
            last =
              transport.send === undefined || transport.turnOf === undefined
                ? await scope.race(transport.generate(request))
                : transport.turnOf(await scope.race(transport.send(request)), request)
          } catch (error) {
            last = await retryTurn(error, transport, request, run.settings.retry, scope)
          }
        } else last = await modelTurn(request, modelCallOptions(run))
        turnCalls = turnCallsOf(run, last)
        if (isPromiseLike(turnCalls)) turnCalls = await turnCalls
      }
      if (turnCalls.calls.length > 0) {
        keyCalls(run, turnCalls.calls)
        answers = answerCallsQuietly(run, turnCalls.calls, turnCalls.presets)
        if (answers instanceof Promise) answers = await answers
        const suspended = answeredTurn(run, turnCalls, answers)
        // A call waits: the run ends suspended.
        if (suspended !== undefined) {
          result = await suspended
          break
        }
      }
      if (!goesOn(run)) break
    }
    result ??= finishedResult(run)
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
