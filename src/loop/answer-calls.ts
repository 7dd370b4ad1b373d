import { type CallPreset, runUnanswered } from '../approvals/hold-calls.js'
import type { RunTelemetry } from '../contracts/run-telemetry.js'
import type { RunEvent, ToolCallRecord } from '../contracts/run-types.js'
import type { ModelToolCall } from '../contracts/transport.js'
import type { ToolResult } from '../tool/types.js'
import { answerCall } from './answer-call.js'
import type { LoopRun } from './loop-run.js'
import { type PreparedCall, recordedArgs } from './prepare-call.js'
import { runBounded, settleQuietly } from './run-bounded.js'

/** A turn's answers, in call order, and whether some call still waits for approval. */
export interface TurnAnswers {
  answered: Array<{ call: ModelToolCall; result: ToolResult }>
  waiting: boolean
}

/**
 * Answers a turn's calls, at most `toolConcurrency` at once, and records each in call order: a call
 * decided before (held, answered in an earlier part of the run, declined now) takes its preset, the
 * others run (traced, and a recorded step in a durable run). Yields `tool-result` and
 * `tool-output-denied` events when streaming.
 *
 * @example
 * const { answered, waiting } = yield* answerCalls(run, calls, presets)
 */
export async function* answerCalls<Message>(
  run: LoopRun<Message>,
  calls: readonly PreparedCall[],
  presets: ReadonlyArray<CallPreset | undefined> | undefined,
): AsyncGenerator<RunEvent<Message>, TurnAnswers> {
  const { settings, scope, streaming, records } = run
  const answer = answerer(run)
  const running =
    presets === undefined
      ? runBounded(calls, settings.toolConcurrency, answer)
      : runUnanswered({
          calls,
          presets,
          run: (chosen) => runBounded(chosen, settings.toolConcurrency, answer),
        })
  const answered: TurnAnswers['answered'] = []
  let waiting = false
  for (let index = 0; index < calls.length; index++) {
    const prepared = calls[index] as PreparedCall
    const call = prepared.call
    const preset = presets?.[index]
    if (preset !== undefined) {
      // Waiting, answered in an earlier part of the run, or declined now.
      if (preset.kind === 'held') waiting = true
      else answered.push({ call, result: preset.result })
      if (preset.kind === 'held' || !preset.fresh) continue
      records.push({ id: call.id, name: call.name, args: recordedArgs(prepared), ...preset.result })
      if (streaming) {
        yield {
          type: 'tool-output-denied',
          toolCallId: call.id,
          toolName: call.name,
          ...(preset.reason === undefined ? {} : { reason: preset.reason }),
        }
      }
      continue
    }
    const result = await scope.race(running[index] as Promise<ToolResult>)
    answered.push({ call, result })
    const record: ToolCallRecord = {
      id: call.id,
      name: call.name,
      args: recordedArgs(prepared),
      output: result.output,
      isError: result.isError,
    }
    if (result.metadata !== undefined) record.metadata = result.metadata
    if (result.media !== undefined) record.media = result.media
    records.push(record)
    if (streaming) {
      const event: RunEvent<Message> = {
        type: 'tool-result',
        toolCallId: call.id,
        toolName: call.name,
        output: result.output,
        isError: result.isError,
      }
      if (result.media !== undefined) event.media = result.media
      yield event
    }
  }
  return { answered, waiting }
}

/** How this run answers one call: traced when the run is, a recorded step when it is durable. */
function answerer<Message>(run: LoopRun<Message>): (call: PreparedCall) => Promise<ToolResult> {
  const { toolkit, scope, search, trace } = run
  const { hooks } = run.settings
  const untraced = (call: PreparedCall): Promise<ToolResult> =>
    answerCall(call, { toolkit, hooks, scope, search })
  const answerNow = trace === undefined ? untraced : traced(trace, untraced)
  const steps = run.input.durable?.steps
  if (steps === undefined) return answerNow
  return (call) => settleQuietly(steps.step(`tool ${call.call.name}`, () => answerNow(call)))
}

/** `answer`, with each call inside its own span. */
function traced(
  trace: RunTelemetry,
  answer: (call: PreparedCall) => Promise<ToolResult>,
): (call: PreparedCall) => Promise<ToolResult> {
  return (prepared) =>
    trace.traceToolCall(
      prepared.call,
      () => recordedArgs(prepared),
      () => answer(prepared),
    )
}
