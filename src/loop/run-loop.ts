import type { ApprovalGuard } from '../approvals/approval-guard.js'
import { type CallPreset, findHeldCalls, holdCalls, runUnanswered } from '../approvals/hold-calls.js'
import { openResume } from '../approvals/open-resume.js'
import type { RunStateKeys } from '../approvals/run-state.js'
import { suspendRun } from '../approvals/suspend-run.js'
import type { DurableSteps } from '../durable/durable-runner.js'
import { AbortError, ModelCallError, ToolnexusError } from '../errors.js'
import { SearchSession } from '../search/search-session.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import { errorMessage, errorResult, toolFailed } from '../tool/tool-result.js'
import type { Tool, ToolContext, ToolResult } from '../tool/types.js'
import type { Toolkit } from '../toolkit/create-toolkit.js'
import { addUsage } from './add-usage.js'
import { generateRunKey } from './call-ids.js'
import { type RetryPolicy, retryDelay, sleep } from './retry.js'
import { RunScope } from './run-scope.js'
import type { LoopTelemetry, RunTelemetry } from './run-telemetry.js'
import type { ModelToolCall, ModelTurn, Transport, TransportRequest } from './transport.js'
import type { Hooks, RunEvent, RunResult, ToolCallRecord, Usage } from './types.js'

const NO_TOOLS: readonly Tool[] = []

/** What the engine needs besides the transport: the client's settings. */
export interface LoopSettings<Message> {
  system: string | undefined
  maxTurns: number
  hooks: Hooks<Message>
  retry: RetryPolicy
  timeoutMs: number | undefined
  toolConcurrency: number
  /** Traces every run, model call and tool call; loaded on demand, so its promise until then. */
  telemetry?: LoopTelemetry | PromiseLike<LoopTelemetry> | undefined
  /** How suspended runs are sealed and checked (the client's transport, key and expiry). */
  runState: RunStateKeys
  /** Refuses to hand out a replayable run, and claims an answered one once. */
  approvalGuard: ApprovalGuard
}

/** One run's input. */
export interface LoopInput<Message> {
  /** The transport, or its promise while a model id is being resolved. */
  transport: Transport<Message> | PromiseLike<Transport<Message>>
  settings: LoopSettings<Message>
  /** The earlier conversation, kept as is. */
  history: readonly Message[]
  /** The new user turn: text, or messages to append after the history. */
  prompt: string | readonly Message[]
  toolkit: Toolkit | undefined
  /** This run's own system prompt, after the client's `system` (`RunOptions.system`). */
  system?: string | undefined
  signal: AbortSignal | undefined
  /** Aborted by a stream whose consumer left early. */
  stop?: AbortSignal
  /**
   * Tools declared to the model by someone else, who runs them: a turn that calls one ends the run once
   * the turn's other calls are answered, and those calls stay unanswered for their owner to answer.
   */
  externalTools?: ReadonlySet<string>
  /**
   * `generate` uses the transport's non-streaming call and yields no events (the result is the return
   * value); `stream` uses its streaming call and yields every event.
   */
  mode: 'generate' | 'stream'
  /**
   * Goes on with a suspended run instead of starting one (`history` and `prompt` are then unused): the
   * state and the answers. The run is claimed before anything of it runs.
   */
  resume?: { state: unknown; approvals: unknown }
  /**
   * The run's id: the start of every call's idempotency key (and of its approval ids). Without it a run
   * draws a random one when it first needs it; a resumed run goes on with its state's.
   */
  runId?: string | undefined
  /**
   * Makes the run durable: each model call, each tool call and a suspension are steps recorded by the
   * engine, so a replay takes the same path. `emit` gets a streamed model call's text as it comes (the
   * step's record keeps only the whole turn).
   */
  durable?: { steps: DurableSteps; emit?: ((event: RunEvent<Message>) => void) | undefined } | undefined
}

/**
 * The tool-calling loop, transport-agnostic, as a generator of run events (`text-delta`, `tool-call`, `tool-result`, `step-end`; `finish` last, carrying the
 * result, which is also the generator's return value; in `generate` mode only the return value). Each turn calls the model with the toolkit's tools
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
  const { settings, toolkit, mode, prompt, externalTools } = input
  const { hooks } = settings
  // `run` wants only the result: events are built and yielded for streams alone.
  const streaming = mode === 'stream'
  const scope = new RunScope({ signal: input.signal, timeoutMs: settings.timeoutMs, stop: input.stop })
  let completed = false
  let trace: RunTelemetry | undefined
  try {
    scope.check()
    let transport = isPromiseLike(input.transport) ? await scope.race(input.transport) : input.transport
    // A resumed run starts inside the turn it stopped in, with that turn's calls, some already answered.
    const { approvalGuard } = settings
    // In a durable run the claim is a recorded step: a replay after a crash takes the claim it won
    // instead of claiming again (and losing to itself).
    const steps = input.durable?.steps
    const claim: ApprovalGuard['claim'] =
      steps === undefined
        ? (run) => approvalGuard.claim(run)
        : (run) => steps.step('claim', () => approvalGuard.claim(run))
    let resumed =
      input.resume === undefined
        ? undefined
        : await scope.race(openResume(input.resume, settings.runState, claim))
    const messages =
      resumed !== undefined
        ? (resumed.messages as Message[])
        : [...input.history, ...(typeof prompt === 'string' ? [transport.userMessage(prompt)] : prompt)]
    const system = joinSystem(settings.system, input.system, toolkit?.skillsPrompt())
    if (settings.telemetry !== undefined) {
      const telemetry = isPromiseLike(settings.telemetry)
        ? await scope.race(settings.telemetry)
        : settings.telemetry
      trace = telemetry.startRun({ model: transport.model, toolkit, system, prompt })
      transport = trace.traceTransport(transport)
    }
    const records: ToolCallRecord[] = []
    const usage: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 }
    const memo = new Map<Message, unknown>()
    let turn = resumed?.turn ?? 0
    if (resumed !== undefined) addUsage(usage, resumed.usage)
    let last: ModelTurn<Message> | undefined
    // Kept over the run: a later turn that waits again continues the same run's approval ids.
    let runId = resumed?.runId
    // The start of every call's idempotency key: drawn only when a tool is first called.
    let keyPrefix = input.runId ?? runId
    const durable = input.durable
    const answeredIds = resumed?.answered ?? []
    // Approval checks cost nothing unless the toolkit can ask for them (a custom Toolkit may not).
    const approvals = typeof toolkit?.needsApproval === 'function' ? toolkit : undefined
    // Whether the last turn called a tool that its owner outside the loop answers.
    let handedOut = false
    // With tool search on, the tools declared start small and grow; a resumed run keeps the ones it called.
    const search =
      toolkit?.searchOptions === undefined
        ? undefined
        : new SearchSession({
            toolkit,
            search: toolkit.searchOptions,
            native: toolkit.searchOptions.native === 'auto' && transport.nativeToolSearch === true,
            loaded: resumed?.calls.map((prepared) => prepared.call.name) ?? [],
          })
    while (true) {
      let presets: Array<CallPreset | undefined> | undefined
      let calls: PreparedCall[]
      if (resumed !== undefined) {
        last = resumed.last as ModelTurn<Message>
        calls = resumed.calls
        presets = resumed.presets
        resumed = undefined
      } else {
        turn++
        // Read each turn: a toolkit's list changes when an MCP server announces new tools. `tools()` hands
        // back the same array until it does, so transports keep their converted declarations.
        const allTools = search?.tools() ?? toolkit?.tools() ?? NO_TOOLS
        let request: TransportRequest<Message> = {
          messages,
          tools: allTools,
          system,
          signal: scope.outsideSignal,
          memo,
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
        if (durable !== undefined) {
          const asked = request
          last = await scope.race(
            durable.steps.step('model', async () =>
              recordable(
                streaming
                  ? await collectTurn(streamTurn(transport, asked, settings.retry, scope), durable.emit)
                  : await generateTurn(transport, asked, settings.retry, scope),
              ),
            ),
          )
        } else {
          last = streaming
            ? yield* streamTurn(transport, request, settings.retry, scope)
            : await generateTurn(transport, request, settings.retry, scope)
        }
        if (hooks.afterModel !== undefined)
          await scope.race(Promise.resolve(hooks.afterModel({ response: last.response, turn })))
        addUsage(usage, last.usage)
        if (last.message !== undefined) messages.push(last.message)
        calls = last.toolCalls.map((call) => prepareCall(call, toolkit))
        if (streaming) {
          for (const call of calls) {
            yield { type: 'tool-call', toolCallId: call.call.id, toolName: call.call.name, input: call.args }
          }
        }
        if (externalTools !== undefined && calls.length > 0) {
          const own = calls.filter((call) => !externalTools.has(call.call.name))
          handedOut = own.length < calls.length
          calls = own
        }
        if (approvals !== undefined && calls.length > 0) {
          const found = findHeldCalls(calls, approvals)
          const held = isPromiseLike(found) ? await scope.race(found) : found
          if (held !== undefined) {
            runId ??= input.runId ?? crypto.randomUUID()
            presets = await scope.race(holdCalls({ calls, held, keys: settings.runState, runId, turn }))
            if (streaming) yield* approvalRequests(calls, presets)
          }
        }
      }

      if (calls.length > 0) {
        keyPrefix ??= generateRunKey()
        for (const [index, call] of calls.entries()) call.idempotencyKey = `${keyPrefix}:${turn}:${index + 1}`
        const untraced = (call: PreparedCall): Promise<ToolResult> =>
          answerCall(call, { toolkit, hooks, scope, search })
        const answerNow = trace === undefined ? untraced : traced(trace, untraced)
        const answer =
          durable === undefined
            ? answerNow
            : (call: PreparedCall): Promise<ToolResult> =>
                settleQuietly(durable.steps.step(`tool ${call.call.name}`, () => answerNow(call)))
        const running =
          presets === undefined
            ? runBounded(calls, settings.toolConcurrency, answer)
            : runUnanswered({
                calls,
                presets,
                run: (chosen) => runBounded(chosen, settings.toolConcurrency, answer),
              })
        const answered: Array<{ call: ModelToolCall; result: ToolResult }> = []
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
        if (waiting && presets !== undefined && runId !== undefined) {
          const suspension = { runId, last }
          const suspend = (): Promise<RunResult<Message>> =>
            suspendRun({
              transport,
              keys: settings.runState,
              guard: settings.approvalGuard,
              runId: suspension.runId,
              answered: answeredIds,
              calls,
              presets,
              results: answered,
              messages,
              turn,
              usage,
              last: suspension.last,
              records,
              recordedArgs: (call) => recordedArgs(call as PreparedCall),
            })
          const result = await scope.race(
            durable === undefined ? suspend() : durable.steps.step('suspend', suspend),
          )
          completed = true
          trace?.end(result)
          if (streaming) {
            yield { type: 'step-end', turn, usage: last.usage }
            yield { type: 'finish', result }
          }
          return result
        }
        if (answered.length > 0) messages.push(...transport.toolResultsMessages(answered))
      }
      if (streaming) yield { type: 'step-end', turn, usage: last.usage }
      if (last.toolCalls.length === 0 || handedOut || turn >= settings.maxTurns) break
    }
    const result: RunResult<Message> = {
      text: last.text,
      messages,
      toolCalls: records,
      turns: turn,
      usage,
      finishReason: last.finishReason,
      status: last.toolCalls.length === 0 || handedOut ? 'done' : 'max-turns',
    }
    completed = true
    trace?.end(result)
    if (streaming) yield { type: 'finish', result }
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

/**
 * The system prompt: the client's `system`, the run's own `system` and the toolkit's skills block,
 * whichever are non-empty, a blank line apart.
 */
function joinSystem(...texts: Array<string | undefined>): string | undefined {
  let joined: string | undefined
  for (const text of texts) {
    if (typeof text !== 'string' || text === '') continue
    joined = joined === undefined ? text : `${joined}\n\n${text}`
  }
  return joined
}

async function generateTurn<Message>(
  transport: Transport<Message>,
  request: TransportRequest<Message>,
  policy: RetryPolicy,
  scope: RunScope,
): Promise<ModelTurn<Message>> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await scope.race(transport.generate(request))
    } catch (error) {
      await afterFailure({ error, attempt, transport, policy, scope, partial: false })
    }
  }
}

async function* streamTurn<Message>(
  transport: Transport<Message>,
  request: TransportRequest<Message>,
  policy: RetryPolicy,
  scope: RunScope,
): AsyncGenerator<RunEvent<Message>, ModelTurn<Message>> {
  for (let attempt = 0; ; attempt++) {
    let emitted = false
    let iterator: AsyncIterator<unknown> | undefined
    try {
      const parts = transport.stream(request)[Symbol.asyncIterator]()
      iterator = parts
      while (true) {
        const next = await scope.race(parts.next())
        if (next.done === true) throw new ModelCallError('The model stream ended without finishing its turn.')
        const part = next.value
        if (part.type === 'turn') return part.turn
        emitted = true
        yield { type: 'text-delta', text: part.text }
      }
    } catch (error) {
      // Once text has reached the caller a retry would repeat it: only a stream that failed before its
      // first part is tried again.
      await afterFailure({ error, attempt, transport, policy, scope, partial: emitted })
    } finally {
      // Not awaited: a transport stuck on its network read must not hold the run.
      iterator?.return?.()?.then(undefined, () => {})
    }
  }
}

/** A streamed model turn, its text handed to `emit` as it comes: one step of a durable run. */
async function collectTurn<Message>(
  parts: AsyncGenerator<RunEvent<Message>, ModelTurn<Message>>,
  emit: ((event: RunEvent<Message>) => void) | undefined,
): Promise<ModelTurn<Message>> {
  while (true) {
    const next = await parts.next()
    if (next.done === true) return next.value
    emit?.(next.value)
  }
}

/**
 * A model turn as a durable step records it: the provider's raw response (for `afterModel`) kept as
 * plain JSON data, or left out when it is not JSON (a replay then hands the hook `undefined`).
 */
function recordable<Message>(turn: ModelTurn<Message>): ModelTurn<Message> {
  let response: unknown
  try {
    response = turn.response === undefined ? undefined : JSON.parse(JSON.stringify(turn.response))
  } catch {
    response = undefined
  }
  return { ...turn, response }
}

/** After a failed model call: rethrows what must not be retried, else waits out the backoff. */
async function afterFailure<Message>(options: {
  error: unknown
  attempt: number
  transport: Transport<Message>
  policy: RetryPolicy
  scope: RunScope
  partial: boolean
}): Promise<void> {
  const { error, attempt, transport, policy, scope, partial } = options
  scope.check()
  if (AbortError.isInstance(error)) throw error
  if (ToolnexusError.isInstance(error) && !ModelCallError.isInstance(error)) throw error
  let advice: ReturnType<Transport<Message>['classifyError']>
  try {
    advice = transport.classifyError(error)
  } catch {
    advice = { retryable: false }
  }
  if (partial || !advice.retryable || attempt >= policy.maxRetries) {
    const attempts = attempt + 1
    const { statusCode } = advice
    if (ModelCallError.isInstance(error)) {
      if (error.attempts === attempts) throw error
      throw new ModelCallError(error.message, { cause: error.cause, attempts, ...statusOf(error.statusCode) })
    }
    throw new ModelCallError(
      `The model call failed${attempts > 1 ? ` after ${attempts} attempts` : ''}: ${errorMessage(error)}`,
      { cause: error, attempts, ...statusOf(statusCode) },
    )
  }
  await sleep(retryDelay({ attempt, policy, retryAfterMs: advice.retryAfterMs }), scope.signal, () =>
    scope.abortError(),
  )
}

function statusOf(statusCode: number | undefined): { statusCode?: number } {
  return statusCode === undefined ? {} : { statusCode }
}

interface PreparedCall {
  call: ModelToolCall
  /** The arguments as an object, or the raw text when they were not a JSON object. */
  args: unknown
  /** Why the arguments cannot be used, when they cannot. */
  problem: string | undefined
  /** The arguments the tool ran with, when a `beforeTool` hook replaced them. */
  replacedArgs?: Record<string, unknown>
  /** `<run>:<turn>:<position>`: the same for this call on every replay of the run. */
  idempotencyKey?: string
}

/** The arguments a call's record shows: the raw text when they were not JSON, else what the tool got. */
function recordedArgs(prepared: PreparedCall): unknown {
  const { args } = prepared
  if (prepared.problem !== undefined || typeof args === 'string') return args
  return prepared.replacedArgs ?? (typeof args === 'object' && args !== null ? args : {})
}

function prepareCall(call: ModelToolCall, toolkit: Toolkit | undefined): PreparedCall {
  if (typeof call.input !== 'string') return { call, args: call.input, problem: undefined }
  const args = call.input
  let parsed: unknown
  try {
    parsed = args.trim() === '' ? {} : JSON.parse(args)
  } catch (error) {
    return {
      call,
      args,
      problem: argumentsProblem(call.name, `they are not valid JSON (${errorMessage(error)})`, args, toolkit),
    }
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    return { call, args: parsed, problem: undefined }
  }
  const kind = Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : `a ${typeof parsed}`
  return {
    call,
    args,
    problem: argumentsProblem(call.name, `expected a JSON object, got ${kind}`, args, toolkit),
  }
}

function argumentsProblem(
  name: string,
  why: string,
  sent: string,
  toolkit: Toolkit | undefined,
): string | undefined {
  // An unknown tool is the bigger mistake: let the toolkit name it and list what exists.
  if (toolkit?.get(name) === undefined) return undefined
  const quoted = sent.length > 200 ? `${sent.slice(0, 200)}…` : sent
  return `Invalid arguments for tool "${name}": ${why}. Received: ${quoted}. Send the arguments as one JSON object matching the tool's schema.`
}

/**
 * Answers one call. Without tool hooks the promise never rejects (`executeTool` turns every failure into an
 * error result); with them a hook that throws rejects it, and it is marked handled, because the loop may
 * stop awaiting first.
 */
function answerCall<Message>(prepared: PreparedCall, context: LoopCallContext<Message>): Promise<ToolResult> {
  const { toolkit, hooks, scope, search } = context
  const { call, problem } = prepared
  if (problem !== undefined) return Promise.resolve(errorResult(problem))
  const args =
    typeof prepared.args === 'object' && prepared.args !== null
      ? (prepared.args as Record<string, unknown>)
      : {}
  if (hooks.beforeTool === undefined && hooks.afterTool === undefined) {
    // The common case, run for every call: no async frame of its own. Without tool hooks nothing inside
    // the run can end it while tools run, so they need the run's signal only if the outside can abort it.
    return executeTool({
      toolkit,
      search,
      name: call.name,
      args,
      signal: scope.outsideSignal,
      toolCallId: call.id,
      idempotencyKey: prepared.idempotencyKey,
    })
  }
  return settleQuietly(answerCallWithHooks(prepared, args, context))
}

async function answerCallWithHooks<Message>(
  prepared: PreparedCall,
  given: Record<string, unknown>,
  context: LoopCallContext<Message>,
): Promise<ToolResult> {
  const { toolkit, hooks, scope, search } = context
  const { call } = prepared
  let args = given
  let result: ToolResult | undefined
  if (hooks.beforeTool !== undefined) {
    const change = await hooks.beforeTool({ toolCallId: call.id, name: call.name, args })
    if (change?.args !== undefined) {
      args = change.args
      prepared.replacedArgs = args
    }
    if (change?.result !== undefined) result = change.result
  }
  result ??= await executeTool({
    toolkit,
    search,
    name: call.name,
    args,
    signal: scope.signal,
    toolCallId: call.id,
    idempotencyKey: prepared.idempotencyKey,
  })
  if (hooks.afterTool !== undefined) {
    const change = await hooks.afterTool({ toolCallId: call.id, name: call.name, args, result })
    if (change?.result !== undefined) result = change.result
  }
  return result
}

/** What answering one call needs besides the call. */
interface LoopCallContext<Message> {
  toolkit: Toolkit | undefined
  hooks: Hooks<Message>
  scope: RunScope
  search: SearchSession | undefined
}

function executeTool(options: {
  toolkit: Toolkit | undefined
  search: SearchSession | undefined
  name: string
  args: Record<string, unknown>
  signal: AbortSignal | undefined
  toolCallId: string
  idempotencyKey: string | undefined
}): Promise<ToolResult> {
  const { toolkit, name, args, signal, toolCallId, idempotencyKey } = options
  const searched = options.search?.answer(name, args)
  if (searched !== undefined) return searched.then(undefined, (error: unknown) => toolFailed(name, error))
  if (toolkit === undefined) {
    return Promise.resolve(errorResult(`Unknown tool "${name}". No tools are available in this run.`))
  }
  // A custom Toolkit may break the never-throws rule; the model still gets an answer.
  const failed = (error: unknown): ToolResult => toolFailed(name, error)
  try {
    const context: ToolContext = { toolCallId }
    if (idempotencyKey !== undefined) context.idempotencyKey = idempotencyKey
    if (signal !== undefined) context.signal = signal
    return Promise.resolve(toolkit.execute(name, args, context)).then(undefined, failed)
  } catch (error) {
    return Promise.resolve(failed(error))
  }
}

/**
 * Starts `run` for every item with at most `limit` running at once; the promises keep item order. `run`'s
 * promises must be marked handled already; the ones made here for waiting items are.
 */
function runBounded<Item, Value>(
  items: readonly Item[],
  limit: number,
  run: (item: Item) => Promise<Value>,
): Promise<Value>[] {
  if (items.length <= limit) return items.map(run)
  let active = 0
  const waiting: Array<() => void> = []
  const release = (): void => {
    active--
    waiting.shift()?.()
  }
  return items.map((item) =>
    settleQuietly(
      (async () => {
        if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve))
        active++
        try {
          return await run(item)
        } finally {
          release()
        }
      })(),
    ),
  )
}

/** The same promise, marked handled: the loop may stop awaiting (abort, a hook's throw) before it settles. */
function settleQuietly<Value>(promise: Promise<Value>): Promise<Value> {
  promise.catch(() => {})
  return promise
}
