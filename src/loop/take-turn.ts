import { type CallPreset, findHeldCalls, holdCalls } from '../approvals/hold-calls.js'
import type { ResumedRun } from '../approvals/open-resume.js'
import { suspendRun } from '../approvals/suspend-run.js'
import type { RunEvent, RunResult } from '../contracts/run-types.js'
import type { ModelTurn, Transport, TransportRequest } from '../contracts/transport.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import type { Tool } from '../tool/types.js'
import { addUsage } from './add-usage.js'
import { answerCalls, answerCallsQuietly } from './answer-calls.js'
import { generateRunKey } from './call-ids.js'
import { callModel, generateTurn } from './call-model.js'
import type { LoopRun } from './loop-run.js'
import { type PreparedCall, prepareCall, recordedArgs } from './prepare-call.js'

const NO_TOOLS: readonly Tool[] = []

/** A turn's tool calls, and what is already decided for them (held, answered before, declined). */
interface TurnCalls {
  calls: PreparedCall[]
  presets: Array<CallPreset | undefined> | undefined
}

/**
 * One turn of the loop: the model is asked (or a resumed run picks up the turn it stopped in), its tool
 * calls are answered in call order, and the answers join the transcript. Resolves the run's result when a
 * call waits for approval (the run is suspended), else `undefined` (the loop decides whether to go on).
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
    // Asks the model for its next turn. `run` outside a durable run yields nothing while the model
    // answers: no generator stands in between.
    const { settings, scope, streaming } = run
    const { beforeModel, afterModel } = settings.hooks
    let request = modelRequest(run)
    if (beforeModel !== undefined) request = await changedRequest(run, request, beforeModel)
    const durable = run.input.durable
    const last =
      streaming || durable !== undefined
        ? yield* callModel(request, {
            transport: run.transport,
            retry: settings.retry,
            scope,
            streaming,
            durable,
          })
        : await generateTurn(run.transport, request, settings.retry, scope)
    run.last = last
    if (afterModel !== undefined) {
      await scope.race(Promise.resolve(afterModel({ response: last.response, turn: run.turn })))
    }
    // Reads the calls it makes: announced, handed out, or held.
    const calls = readCalls(run, last)
    if (streaming) {
      for (const call of calls) {
        yield { type: 'tool-call', toolCallId: call.call.id, toolName: call.call.name, input: call.args }
      }
    }
    const own = ownCalls(run, calls)
    turnCalls =
      run.approvals === undefined || own.length === 0
        ? { calls: own, presets: undefined }
        : await heldCalls(run, own, run.approvals)
    if (streaming && turnCalls.presets !== undefined) yield* approvalRequests(own, turnCalls.presets)
  }
  const { calls, presets } = turnCalls
  if (calls.length === 0) return undefined
  run.keyPrefix ??= generateRunKey()
  for (let index = 0; index < calls.length; index++) {
    ;(calls[index] as PreparedCall).idempotencyKey = `${run.keyPrefix}:${run.turn}:${index + 1}`
  }
  const { answered, waiting } = run.streaming
    ? yield* answerCalls(run, calls, presets)
    : await answerCallsQuietly(run, calls, presets)
  if (waiting) return await suspend(run, calls, presets ?? calls.map(() => undefined), answered)
  if (answered.length > 0) run.messages.push(...run.transport.toolResultsMessages(answered))
  return undefined
}

function resumedCalls<Message>(run: LoopRun<Message>): TurnCalls {
  const resumed = run.resumed as ResumedRun
  run.last = resumed.last as ModelTurn<Message>
  run.resumed = undefined
  return { calls: resumed.calls, presets: resumed.presets }
}

/** The next model call's request: the transcript and the tools declared now. */
function modelRequest<Message>(run: LoopRun<Message>): TransportRequest<Message> {
  const { scope, messages, search } = run
  run.turn++
  // Read each turn: a toolkit's list changes when an MCP server announces new tools. `tools()` hands
  // back the same array until it does, so transports keep their converted declarations.
  const allTools = search?.tools() ?? run.toolkit?.tools() ?? NO_TOOLS
  const request: TransportRequest<Message> = {
    messages,
    tools: allTools,
    system: run.system,
    signal: scope.outsideSignal,
    memo: run.memo,
  }
  const deferred = search?.deferred()
  if (deferred !== undefined) request.deferred = deferred
  return request
}

/** The request as a `beforeModel` hook leaves it. */
async function changedRequest<Message>(
  run: LoopRun<Message>,
  request: TransportRequest<Message>,
  beforeModel: NonNullable<LoopRun<Message>['settings']['hooks']['beforeModel']>,
): Promise<TransportRequest<Message>> {
  const { messages, tools } = request
  const change = await run.scope.race(
    Promise.resolve(beforeModel({ messages: [...messages], tools, turn: run.turn })),
  )
  if (!change) return request
  return { ...request, messages: change.messages ?? messages, tools: change.tools ?? tools }
}

/** The model's turn taken into the run (usage, transcript), and its calls read. */
function readCalls<Message>(run: LoopRun<Message>, last: ModelTurn<Message>): PreparedCall[] {
  addUsage(run.usage, last.usage)
  if (last.message !== undefined) run.messages.push(last.message)
  return last.toolCalls.map((call) => prepareCall(call, run.toolkit))
}

/** The calls this run answers itself: those of tools the caller runs (external tools) are handed out. */
function ownCalls<Message>(run: LoopRun<Message>, calls: PreparedCall[]): PreparedCall[] {
  const { externalTools } = run.input
  if (externalTools === undefined || calls.length === 0) return calls
  const own = calls.filter((call) => !externalTools.has(call.call.name))
  run.handedOut = own.length < calls.length
  return own
}

/** The calls, and the approvals they wait for when the toolkit holds some. */
async function heldCalls<Message>(
  run: LoopRun<Message>,
  calls: PreparedCall[],
  approvals: NonNullable<LoopRun<Message>['approvals']>,
): Promise<TurnCalls> {
  const { scope, settings } = run
  const found = findHeldCalls(calls, approvals)
  const held = isPromiseLike(found) ? await scope.race(found) : found
  if (held === undefined) return { calls, presets: undefined }
  run.runId ??= run.input.runId ?? crypto.randomUUID()
  const presets = await scope.race(
    holdCalls({ calls, held, keys: settings.runState, runId: run.runId, turn: run.turn }),
  )
  return { calls, presets }
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

/** Seals the run with its waiting calls (a recorded step in a durable run): the result it ends with. */
function suspend<Message>(
  run: LoopRun<Message>,
  calls: PreparedCall[],
  presets: Array<CallPreset | undefined>,
  answered: Parameters<Transport<Message>['toolResultsMessages']>[0],
): Promise<RunResult<Message>> {
  const { settings, scope } = run
  // A run that suspends on a task alone gets its id here.
  run.runId ??= run.input.runId ?? crypto.randomUUID()
  const runId = run.runId
  const last = run.last as ModelTurn<Message>
  const sealed = (): Promise<RunResult<Message>> =>
    suspendRun({
      transport: run.transport,
      keys: settings.runState,
      guard: settings.approvalGuard,
      runId,
      answered: run.answeredIds,
      calls,
      presets,
      results: answered,
      messages: run.messages,
      turn: run.turn,
      usage: run.usage,
      last,
      records: run.records,
      recordedArgs: (call) => recordedArgs(call as PreparedCall),
    })
  const steps = run.input.durable?.steps
  return scope.race(steps === undefined ? sealed() : steps.step('suspend', sealed))
}
