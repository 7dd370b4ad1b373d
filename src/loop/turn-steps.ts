import { type CallPreset, findHeldCalls, holdCalls } from '../approvals/hold-calls.js'
import type { ResumedRun } from '../approvals/open-resume.js'
import { suspendRun } from '../approvals/suspend-run.js'
import type { RunResult } from '../contracts/run-types.js'
import type { ModelTurn, TransportRequest } from '../contracts/transport.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import type { Tool } from '../tool/types.js'
import { addUsage } from './add-usage.js'
import type { TurnAnswers } from './answer-calls.js'
import { generateRunKey } from './call-ids.js'
import type { ModelCallOptions } from './call-model.js'
import type { LoopRun } from './loop-run.js'
import { type PreparedCall, prepareCall, recordedArgs } from './prepare-call.js'

// The steps of one turn, shared by the turn of a stream (a generator, its events yielded) and the turn
// of a run that streams nothing (a plain async function).

const NO_TOOLS: readonly Tool[] = []

/** A turn's tool calls, and what is already decided for them (held, answered before, declined). */
export interface TurnCalls {
  calls: PreparedCall[]
  presets: Array<CallPreset | undefined> | undefined
}

/**
 * The next model call's request, as the `beforeModel` hook leaves it: synchronous without the hook.
 *
 * @example
 * const next = nextRequest(run)
 * const last = await modelTurn(isPromiseLike(next) ? await next : next, modelCallOptions(run))
 */
export function nextRequest<Message>(
  run: LoopRun<Message>,
): TransportRequest<Message> | Promise<TransportRequest<Message>> {
  const { beforeModel } = run.settings.hooks
  const request = modelRequest(run)
  return beforeModel === undefined ? request : changedRequest(run, request, beforeModel)
}

/**
 * What the model call of this run's turns needs besides the request.
 *
 * @example
 * const last = await modelTurn(request, modelCallOptions(run))
 */
export function modelCallOptions<Message>(run: LoopRun<Message>): ModelCallOptions<Message> {
  return {
    transport: run.transport,
    retry: run.settings.retry,
    scope: run.scope,
    streaming: run.streaming,
    durable: run.input.durable,
  }
}

/**
 * The model's turn taken into the run: the `afterModel` hook told, its usage and message taken, its calls
 * read (announced, handed out or held next).
 *
 * @example
 * const given = tookTurn(run, last)
 * const calls = isPromiseLike(given) ? await given : given
 */
export function tookTurn<Message>(
  run: LoopRun<Message>,
  last: ModelTurn<Message>,
): PreparedCall[] | Promise<PreparedCall[]> {
  run.last = last
  // The provider's raw response (its request and response bodies among it) is the `afterModel` hook's
  // alone: the run keeps the turn while its calls run and the next model call waits, but not that.
  const { response } = last
  last.response = undefined
  const { afterModel } = run.settings.hooks
  if (afterModel === undefined) return readCalls(run, last)
  return run.scope
    .race(Promise.resolve(afterModel({ response, turn: run.turn })))
    .then(() => readCalls(run, last))
}

/**
 * The calls this run answers itself and what is decided for them (the approvals they wait for).
 *
 * @example
 * const turnCalls = await callsToAnswer(run, calls)
 */
export function callsToAnswer<Message>(
  run: LoopRun<Message>,
  calls: PreparedCall[],
): TurnCalls | Promise<TurnCalls> {
  const own = ownCalls(run, calls)
  return run.approvals === undefined || own.length === 0
    ? { calls: own, presets: undefined }
    : heldCalls(run, own, run.approvals)
}

/**
 * {@link tookTurn} then {@link callsToAnswer}, for a run that announces nothing between them: synchronous
 * when both are.
 *
 * @example
 * const decided = turnCallsOf(run, last)
 * const turnCalls = isPromiseLike(decided) ? await decided : decided
 */
export function turnCallsOf<Message>(
  run: LoopRun<Message>,
  last: ModelTurn<Message>,
): TurnCalls | Promise<TurnCalls> {
  const given = tookTurn(run, last)
  return isPromiseLike(given) ? given.then((calls) => callsToAnswer(run, calls)) : callsToAnswer(run, given)
}

/**
 * Gives each of a turn's calls its idempotency key, `<run>:<turn>:<position>`.
 *
 * @example
 * keyCalls(run, calls)
 */
export function keyCalls<Message>(run: LoopRun<Message>, calls: readonly PreparedCall[]): void {
  run.keyPrefix ??= generateRunKey()
  const turnKey = `${run.keyPrefix}:${run.turn}:`
  for (let index = 0; index < calls.length; index++) {
    ;(calls[index] as PreparedCall).idempotencyKey = turnKey + (index + 1)
  }
}

/**
 * A turn's answers taken into the run: the run's suspended result when a call waits, else the answers
 * join the transcript and the turn resolves `undefined`.
 *
 * @example
 * const suspended = answeredTurn(run, turnCalls, yield* answerCalls(run, calls, presets))
 */
export function answeredTurn<Message>(
  run: LoopRun<Message>,
  { calls, presets }: TurnCalls,
  { answered, waiting }: TurnAnswers,
): Promise<RunResult<Message>> | undefined {
  if (waiting) return suspend(run, calls, presets ?? calls.map(() => undefined), answered)
  if (answered.length > 0) run.messages.push(...run.transport.toolResultsMessages(answered))
  return undefined
}

/**
 * The calls of the turn a resumed run stopped in, taken out of the run.
 *
 * @example
 * const turnCalls = resumedCalls(run)
 */
export function resumedCalls<Message>(run: LoopRun<Message>): TurnCalls {
  const resumed = run.resumed as ResumedRun
  run.last = resumed.last as ModelTurn<Message>
  run.resumed = undefined
  return { calls: resumed.calls, presets: resumed.presets }
}

/** The next model call's request: the transcript and the tools declared now. */
function modelRequest<Message>(run: LoopRun<Message>): TransportRequest<Message> {
  const { scope, messages, search } = run
  run.turn++
  // The last turn is read only until the next one is asked for: a run waiting on its model call does
  // not hold it (its message is in the transcript, its calls in the records).
  run.last = undefined
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
  const { toolCalls } = last
  const { toolkit } = run
  if (toolCalls.length === 0) return []
  const calls: PreparedCall[] = new Array(toolCalls.length)
  for (let index = 0; index < toolCalls.length; index++) {
    calls[index] = prepareCall(toolCalls[index] as ModelTurn<Message>['toolCalls'][number], toolkit)
  }
  return calls
}

/** The calls this run answers itself: those of tools the caller runs (external tools) are handed out. */
function ownCalls<Message>(run: LoopRun<Message>, calls: PreparedCall[]): PreparedCall[] {
  const { externalTools } = run.input
  if (externalTools === undefined || calls.length === 0) return calls
  const own = calls.filter((call) => !externalTools.has(call.call.name))
  run.handedOut = own.length < calls.length
  return own
}

/**
 * The calls, and the approvals they wait for when the toolkit holds some: synchronous when the toolkit
 * knows at once that none waits (the common case, no rule is async).
 */
function heldCalls<Message>(
  run: LoopRun<Message>,
  calls: PreparedCall[],
  approvals: NonNullable<LoopRun<Message>['approvals']>,
): TurnCalls | Promise<TurnCalls> {
  const found = findHeldCalls(calls, approvals)
  if (found === undefined) return { calls, presets: undefined }
  return presetCalls(run, calls, found)
}

/** The calls with the presets of those that wait for approval. */
async function presetCalls<Message>(
  run: LoopRun<Message>,
  calls: PreparedCall[],
  found: boolean[] | undefined | Promise<boolean[] | undefined>,
): Promise<TurnCalls> {
  const { scope, settings } = run
  const held = isPromiseLike(found) ? await scope.race(found) : found
  if (held === undefined) return { calls, presets: undefined }
  run.runId ??= run.input.runId ?? crypto.randomUUID()
  const presets = await scope.race(
    holdCalls({ calls, held, keys: settings.runState, runId: run.runId, turn: run.turn }),
  )
  return { calls, presets }
}

/** Seals the run with its waiting calls (a recorded step in a durable run): the result it ends with. */
function suspend<Message>(
  run: LoopRun<Message>,
  calls: PreparedCall[],
  presets: Array<CallPreset | undefined>,
  answered: TurnAnswers['answered'],
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
      answered: [...run.answeredIds],
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
