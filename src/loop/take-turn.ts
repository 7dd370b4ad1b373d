import { type CallPreset, findHeldCalls, holdCalls } from '../approvals/hold-calls.js'
import type { ResumedRun } from '../approvals/open-resume.js'
import { suspendRun } from '../approvals/suspend-run.js'
import type { RunEvent, RunResult } from '../contracts/run-types.js'
import type { ModelTurn, Transport, TransportRequest } from '../contracts/transport.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import type { Tool } from '../tool/types.js'
import { addUsage } from './add-usage.js'
import { answerCalls } from './answer-calls.js'
import { generateRunKey } from './call-ids.js'
import { callModel } from './call-model.js'
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
  const { calls, presets } = run.resumed === undefined ? yield* askModel(run) : resumedCalls(run)
  if (calls.length === 0) return undefined
  run.keyPrefix ??= generateRunKey()
  for (const [index, call] of calls.entries())
    call.idempotencyKey = `${run.keyPrefix}:${run.turn}:${index + 1}`
  const { answered, waiting } = yield* answerCalls(run, calls, presets)
  if (waiting && presets !== undefined && run.runId !== undefined)
    return await suspend(run, calls, presets, answered)
  if (answered.length > 0) run.messages.push(...run.transport.toolResultsMessages(answered))
  return undefined
}

function resumedCalls<Message>(run: LoopRun<Message>): TurnCalls {
  const resumed = run.resumed as ResumedRun
  run.last = resumed.last as ModelTurn<Message>
  run.resumed = undefined
  return { calls: resumed.calls, presets: resumed.presets }
}

/** Asks the model for its next turn and reads the calls it makes: announced, handed out, or held. */
async function* askModel<Message>(run: LoopRun<Message>): AsyncGenerator<RunEvent<Message>, TurnCalls> {
  const { settings, scope, messages, streaming, search } = run
  const { hooks } = settings
  const turn = ++run.turn
  // Read each turn: a toolkit's list changes when an MCP server announces new tools. `tools()` hands
  // back the same array until it does, so transports keep their converted declarations.
  const allTools = search?.tools() ?? run.toolkit?.tools() ?? NO_TOOLS
  let request: TransportRequest<Message> = {
    messages,
    tools: allTools,
    system: run.system,
    signal: scope.outsideSignal,
    memo: run.memo,
  }
  const deferred = search?.deferred()
  if (deferred !== undefined) request.deferred = deferred
  if (hooks.beforeModel !== undefined) {
    const change = await scope.race(
      Promise.resolve(hooks.beforeModel({ messages: [...messages], tools: allTools, turn })),
    )
    if (change) {
      request = { ...request, messages: change.messages ?? messages, tools: change.tools ?? allTools }
    }
  }
  const last = yield* callModel(request, {
    transport: run.transport,
    retry: settings.retry,
    scope,
    streaming,
    durable: run.input.durable,
  })
  run.last = last
  if (hooks.afterModel !== undefined)
    await scope.race(Promise.resolve(hooks.afterModel({ response: last.response, turn })))
  addUsage(run.usage, last.usage)
  if (last.message !== undefined) messages.push(last.message)
  let calls = last.toolCalls.map((call) => prepareCall(call, run.toolkit))
  if (streaming) {
    for (const call of calls) {
      yield { type: 'tool-call', toolCallId: call.call.id, toolName: call.call.name, input: call.args }
    }
  }
  const { externalTools } = run.input
  if (externalTools !== undefined && calls.length > 0) {
    const own = calls.filter((call) => !externalTools.has(call.call.name))
    run.handedOut = own.length < calls.length
    calls = own
  }
  let presets: Array<CallPreset | undefined> | undefined
  if (run.approvals !== undefined && calls.length > 0) {
    const found = findHeldCalls(calls, run.approvals)
    const held = isPromiseLike(found) ? await scope.race(found) : found
    if (held !== undefined) {
      run.runId ??= run.input.runId ?? crypto.randomUUID()
      presets = await scope.race(holdCalls({ calls, held, keys: settings.runState, runId: run.runId, turn }))
      if (streaming) yield* approvalRequests(calls, presets)
    }
  }
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
  const runId = run.runId as string
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
