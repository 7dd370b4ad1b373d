import type { RunResult } from '../contracts/run-types.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import { answerCallsQuietly } from './answer-calls.js'
import { modelTurn } from './call-model.js'
import type { LoopRun } from './loop-run.js'
import {
  answeredTurn,
  callsToAnswer,
  keyCalls,
  modelCallOptions,
  nextRequest,
  resumedCalls,
  type TurnCalls,
  tookTurn,
} from './turn-steps.js'

/**
 * One turn of a run that streams nothing (`run`, durable or not): the same steps as a stream's turn
 * ({@link takeTurn}), in one plain async function, no generator and no events. Resolves the run's result
 * when a call waits (the run is suspended), else `undefined`.
 *
 * @example
 * const suspended = await takeTurnQuietly(run)
 */
export async function takeTurnQuietly<Message>(
  run: LoopRun<Message>,
): Promise<RunResult<Message> | undefined> {
  let turnCalls: TurnCalls
  if (run.resumed !== undefined) turnCalls = resumedCalls(run)
  else {
    const request = nextRequest(run)
    const last = await modelTurn(isPromiseLike(request) ? await request : request, modelCallOptions(run))
    const given = tookTurn(run, last)
    const decided = callsToAnswer(run, isPromiseLike(given) ? await given : given)
    turnCalls = isPromiseLike(decided) ? await decided : decided
  }
  if (turnCalls.calls.length === 0) return undefined
  keyCalls(run, turnCalls.calls)
  return answeredTurn(run, turnCalls, await answerCallsQuietly(run, turnCalls.calls, turnCalls.presets))
}
