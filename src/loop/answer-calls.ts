import { type CallPreset, runUnanswered } from '../approvals/hold-calls.js'
import type { RunTelemetry } from '../contracts/run-telemetry.js'
import type { RunEvent, ToolCallRecord } from '../contracts/run-types.js'
import type { ModelToolCall } from '../contracts/transport.js'
import { pendingTaskOf } from '../tool/pending-task.js'
import type { ToolResult } from '../tool/types.js'
import { answerCall, answerTask, type LoopCallContext } from './answer-call.js'
import type { CallAnswerer, LoopRun } from './loop-run.js'
import { type PreparedCall, recordedArgs } from './prepare-call.js'
import { runBounded, settleQuietly } from './run-bounded.js'
import { waitingOnTasks } from './wait-on-tasks.js'

/** A turn's answers, in call order, and whether some call still waits (for approval, or as a task). */
export interface TurnAnswers {
  answered: Array<{ call: ModelToolCall; result: ToolResult }>
  waiting: boolean
}

/**
 * Answers a turn's calls, at most `toolConcurrency` at once, and records each in call order: a call
 * decided before (held, answered in an earlier part of the run, declined now) takes its preset, the
 * others run (traced, and a recorded step in a durable run). Yields `tool-result` and
 * `tool-output-denied` events, each as soon as its call is answered in call order (a stream's).
 *
 * @example
 * const { answered, waiting } = yield* answerCalls(run, calls, presets)
 */
export async function* answerCalls<Message>(
  run: LoopRun<Message>,
  calls: readonly PreparedCall[],
  presets: ReadonlyArray<CallPreset | undefined> | undefined,
): AsyncGenerator<RunEvent<Message>, TurnAnswers> {
  const running = startCalls(run, calls, presets)
  const answers: TurnAnswers = { answered: [], waiting: false }
  for (let index = 0; index < calls.length; index++) {
    const prepared = calls[index] as PreparedCall
    const preset = presets?.[index]
    const event =
      preset === undefined
        ? resultEvent<Message>(
            prepared,
            recordResult(
              run,
              answers,
              prepared,
              await run.scope.race(running[index] as ToolResult | Promise<ToolResult>),
            ),
          )
        : recordPreset<Message>(run, answers, prepared, preset)
    if (event !== undefined) yield event
  }
  return answers
}

/**
 * {@link answerCalls} for a run that streams nothing (`run`): the same answers and records, no events and
 * no generator, and nothing to wait for when every call is answered at once (tools that answer
 * synchronously): then the answers themselves, else their promise.
 *
 * @example
 * const answering = answerCallsQuietly(run, calls, presets)
 * const { answered, waiting } = answering instanceof Promise ? await answering : answering
 */
export function answerCallsQuietly<Message>(
  run: LoopRun<Message>,
  calls: readonly PreparedCall[],
  presets: ReadonlyArray<CallPreset | undefined> | undefined,
): TurnAnswers | Promise<TurnAnswers> {
  const running = startCalls(run, calls, presets)
  const answers: TurnAnswers = { answered: [], waiting: false }
  for (let index = 0; index < calls.length; index++) {
    const prepared = calls[index] as PreparedCall
    const preset = presets?.[index]
    if (preset !== undefined) {
      recordPreset<Message>(run, answers, prepared, preset)
      continue
    }
    const answer = running[index] as ToolResult | Promise<ToolResult>
    if (answer instanceof Promise) return answerLater(run, calls, presets, running, answers, index)
    // What awaiting `scope.race` would do with an answer at hand: an aborted run ends here.
    run.scope.check()
    recordResult(run, answers, prepared, answer)
  }
  return answers
}

/** The rest of {@link answerCallsQuietly} from the first call whose answer is still to come. */
async function answerLater<Message>(
  run: LoopRun<Message>,
  calls: readonly PreparedCall[],
  presets: ReadonlyArray<CallPreset | undefined> | undefined,
  running: ReadonlyArray<ToolResult | Promise<ToolResult> | undefined>,
  answers: TurnAnswers,
  from: number,
): Promise<TurnAnswers> {
  for (let index = from; index < calls.length; index++) {
    const prepared = calls[index] as PreparedCall
    const preset = presets?.[index]
    if (preset !== undefined) recordPreset<Message>(run, answers, prepared, preset)
    else {
      const answer = running[index] as ToolResult | Promise<ToolResult>
      recordResult(run, answers, prepared, await run.scope.race(answer))
    }
  }
  return answers
}

/** Starts the calls no preset decides, at most `toolConcurrency` at once: their answers, by position. */
function startCalls<Message>(
  run: LoopRun<Message>,
  calls: readonly PreparedCall[],
  presets: ReadonlyArray<CallPreset | undefined> | undefined,
): Array<ToolResult | Promise<ToolResult> | undefined> {
  const limit = run.settings.toolConcurrency
  if (presets === undefined) {
    // The same for every turn of the run: made once (a plain run's is `answerCall` itself).
    run.answer ??= answerer(run, false)
    return runBounded(calls, limit, run.answer, run)
  }
  // A turn with presets (held or resumed): a resumed call that ran as an MCP task has its result fetched.
  const answer = answerer(run, true)
  return runUnanswered({ calls, presets, run: (chosen) => runBounded(chosen, limit, answer, run) })
}

/** A call a preset decides: waiting, answered in an earlier part of the run, or declined now. */
function recordPreset<Message>(
  run: LoopRun<Message>,
  answers: TurnAnswers,
  prepared: PreparedCall,
  preset: CallPreset,
): RunEvent<Message> | undefined {
  const { call } = prepared
  if (preset.kind === 'held') answers.waiting = true
  else answers.answered.push({ call, result: preset.result })
  if (preset.kind === 'held' || !preset.fresh) return undefined
  run.records.push({ id: call.id, name: call.name, args: recordedArgs(prepared), ...preset.result })
  return {
    type: 'tool-output-denied',
    toolCallId: call.id,
    toolName: call.name,
    ...(preset.reason === undefined ? {} : { reason: preset.reason }),
  }
}

/** A call that ran: its answer and its record. */
function recordResult<Message>(
  run: LoopRun<Message>,
  answers: TurnAnswers,
  prepared: PreparedCall,
  result: ToolResult,
): ToolResult {
  const { call } = prepared
  answers.answered.push({ call, result })
  // A call still running as an MCP task: the run suspends with it after this turn.
  if (pendingTaskOf(result) !== undefined) answers.waiting = true
  const record: ToolCallRecord = {
    id: call.id,
    name: call.name,
    args: recordedArgs(prepared),
    output: result.output,
    isError: result.isError,
  }
  if (result.metadata !== undefined) record.metadata = result.metadata
  if (result.media !== undefined) record.media = result.media
  run.records.push(record)
  return result
}

function resultEvent<Message>(prepared: PreparedCall, result: ToolResult): RunEvent<Message> {
  const event: RunEvent<Message> = {
    type: 'tool-result',
    toolCallId: prepared.call.id,
    toolName: prepared.call.name,
    output: result.output,
    isError: result.isError,
  }
  if (result.media !== undefined) event.media = result.media
  const pending = pendingTaskOf(result)
  const task = pending ?? prepared.task
  if (task !== undefined) {
    event.task = { server: task.server, taskId: task.taskId, status: pending ? 'working' : 'settled' }
  }
  return event
}

/**
 * How this run answers one call, given the run: traced when the run is, a recorded step when it is
 * durable; in a turn with presets (`resumed`), a call that ran as an MCP task has its task's result
 * fetched instead. A run that is none of these answers with `answerCall` itself, no closure made.
 */
function answerer<Message>(run: LoopRun<Message>, resumed: boolean): CallAnswerer<Message> {
  const { trace } = run
  // Only a turn with presets can hold a resumed task call: a fresh turn's calls are not looked at.
  const plain: CallAnswerer<Message> = resumed ? answerResumedCall : answerCall
  const steps = run.input.durable?.steps
  // A step records a result as JSON, which a pending-task result does not survive as one: a durable run
  // waits for the task inside the call's step instead of suspending on it (for `maxTaskWaitMs`, else the
  // toolkit's tool timeout, at most).
  const wait = run.input.waitOnTasks === true || steps !== undefined
  if (!wait && trace === undefined) return plain
  const untraced = (call: PreparedCall) => plain(call, run)
  const answered = wait ? waitingOnTasks(untraced, run, run.settings.maxTaskWaitMs) : untraced
  const answerNow = trace === undefined ? answered : traced(trace, answered)
  if (steps === undefined) return answerNow
  return (call) => settleQuietly(steps.step(`tool ${call.call.name}`, () => Promise.resolve(answerNow(call))))
}

/** A call of a resumed turn: one that ran as an MCP task has its task's result fetched, not run again. */
function answerResumedCall<Message>(
  call: PreparedCall,
  context: LoopCallContext<Message>,
): ToolResult | Promise<ToolResult> {
  return call.task === undefined ? answerCall(call, context) : answerTask(call, call.task, context)
}

/** `answer`, with each call inside its own span. */
function traced(
  trace: RunTelemetry,
  answer: (call: PreparedCall) => ToolResult | Promise<ToolResult>,
): (call: PreparedCall) => Promise<ToolResult> {
  return (prepared) =>
    trace.traceToolCall(
      prepared.call,
      () => recordedArgs(prepared),
      () => Promise.resolve(answer(prepared)),
    )
}
