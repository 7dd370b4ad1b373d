import type { CallPreset } from '../approvals/hold-calls.js'
import type { RunEvent, RunResult } from '../contracts/run-types.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import { answerCalls } from './answer-calls.js'
import { callModel } from './call-model.js'
import type { LoopRun } from './loop-run.js'
import type { PreparedCall } from './prepare-call.js'
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
 * One turn of the loop as a stream takes it: the model is asked (or a resumed run picks up the turn it
 * stopped in), its tool calls are answered in call order, and the answers join the transcript; every
 * event is yielded as it comes. Resolves the run's result when a call waits for approval (the run is
 * suspended), else `undefined` (the loop decides whether to go on). A run that streams nothing takes
 * the same steps inside {@link runQuietly} instead.
 *
 * @example
 * const suspended = yield* takeTurn(run)
 */
export async function* takeTurn<Message>(
  run: LoopRun<Message>,
): AsyncGenerator<RunEvent<Message>, RunResult<Message> | undefined> {
  let turnCalls: TurnCalls
  if (run.resumed !== undefined) turnCalls = resumedCalls(run)
  else {
    const request = nextRequest(run)
    const last = yield* callModel(isPromiseLike(request) ? await request : request, modelCallOptions(run))
    const given = tookTurn(run, last)
    const calls = isPromiseLike(given) ? await given : given
    for (const call of calls) {
      yield { type: 'tool-call', toolCallId: call.call.id, toolName: call.call.name, input: call.args }
    }
    const decided = callsToAnswer(run, calls)
    turnCalls = isPromiseLike(decided) ? await decided : decided
    if (turnCalls.presets !== undefined) yield* approvalRequests(turnCalls.calls, turnCalls.presets)
  }
  if (turnCalls.calls.length === 0) return undefined
  keyCalls(run, turnCalls.calls)
  return answeredTurn(run, turnCalls, yield* answerCalls(run, turnCalls.calls, turnCalls.presets))
}

/** The `tool-approval-request` events of a turn's waiting calls, in call order. */
function* approvalRequests<Message>(
  calls: readonly PreparedCall[],
  presets: ReadonlyArray<CallPreset | undefined>,
): Generator<RunEvent<Message>> {
  for (const [index, preset] of presets.entries()) {
    if (preset?.kind !== 'held') continue
    const { call, args } = calls[index] as PreparedCall
    yield {
      type: 'tool-approval-request',
      approvalId: preset.approvalId,
      toolCallId: call.id,
      toolName: call.name,
      input: args,
    }
  }
}
