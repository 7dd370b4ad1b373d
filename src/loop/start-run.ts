import type { ApprovalGuard } from '../approvals/approval-guard.js'
import { openResume, type ResumedRun } from '../approvals/open-resume.js'
import type { LoopTelemetry, RunTelemetry } from '../contracts/run-telemetry.js'
import type { RunResult } from '../contracts/run-types.js'
import type { ModelTurn, Transport } from '../contracts/transport.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import { addUsage } from './add-usage.js'
import type { LoopInput } from './loop-input.js'
import type { LoopRun } from './loop-run.js'
import type { RunScope } from './run-scope.js'
import { SearchSession } from './search-session.js'

const NO_IDS: readonly string[] = Object.freeze([])

/**
 * Sets a run up: its transport (once resolved), the suspended run it resumes (claimed first), its
 * transcript, system prompt, trace and tool search. Synchronous when nothing is left to wait for (the
 * transport and telemetry loaded, no run to resume), so that a plain run's start has no async frame.
 *
 * @example
 * const started = startRun(input, new RunScope(input.signal, undefined, undefined), false)
 * const run = isPromiseLike(started) ? await started : started
 */
export function startRun<Message>(
  input: LoopInput<Message>,
  scope: RunScope,
  streaming: boolean,
): LoopRun<Message> | Promise<LoopRun<Message>> {
  scope.check()
  const { transport } = input
  const { telemetry } = input.settings
  if (isPromiseLike(transport) || input.resume !== undefined || isPromiseLike(telemetry)) {
    return startRunLater(input, scope, streaming)
  }
  return newRun(input, scope, streaming, transport, undefined, telemetry)
}

/** {@link startRun} once the transport, the resumed run and the telemetry are awaited, in that order. */
async function startRunLater<Message>(
  input: LoopInput<Message>,
  scope: RunScope,
  streaming: boolean,
): Promise<LoopRun<Message>> {
  const { settings } = input
  const transport = isPromiseLike(input.transport) ? await scope.race(input.transport) : input.transport
  const { approvalGuard } = settings
  // In a durable run the claim is a recorded step: a replay after a crash takes the claim it won
  // instead of claiming again (and losing to itself).
  const steps = input.durable?.steps
  const claim: ApprovalGuard['claim'] =
    steps === undefined
      ? (run) => approvalGuard.claim(run)
      : (run) => steps.step('claim', () => approvalGuard.claim(run))
  const resumed =
    input.resume === undefined
      ? undefined
      : await scope.race(openResume(input.resume, settings.runState, claim))
  const telemetry = isPromiseLike(settings.telemetry)
    ? await scope.race(settings.telemetry)
    : settings.telemetry
  return newRun(input, scope, streaming, transport, resumed, telemetry)
}

/** The run, once everything it starts from is at hand. */
function newRun<Message>(
  input: LoopInput<Message>,
  scope: RunScope,
  streaming: boolean,
  given: Transport<Message>,
  resumed: ResumedRun | undefined,
  telemetry: LoopTelemetry | undefined,
): LoopRun<Message> {
  const { settings, toolkit, prompt } = input
  let transport = given
  let messages: Message[]
  if (resumed !== undefined) messages = resumed.messages as Message[]
  else if (typeof prompt === 'string') {
    // The history and the new user message, with no array made only to be spread.
    messages = input.history.length === 0 ? [] : [...input.history]
    messages.push(transport.userMessage(prompt))
  } else messages = [...input.history, ...prompt]
  const system = joinSystem(settings.system, input.system, toolkit?.skillsPrompt())
  let trace: RunTelemetry | undefined
  if (telemetry !== undefined) {
    trace = telemetry.startRun({ model: transport.model, toolkit, system, prompt })
    transport = trace.traceTransport(transport)
  }
  const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 }
  if (resumed !== undefined) addUsage(usage, resumed.usage)
  return {
    input,
    settings,
    toolkit,
    hooks: settings.hooks,
    transport,
    scope,
    streaming,
    trace,
    // With tool search on, the tools declared start small and grow; a resumed run keeps the ones it called.
    search:
      toolkit?.searchOptions === undefined
        ? undefined
        : new SearchSession({
            toolkit,
            search: toolkit.searchOptions,
            native: toolkit.searchOptions.native === 'auto' && transport.nativeToolSearch === true,
            loaded: resumed?.calls.map((prepared) => prepared.call.name) ?? [],
          }),
    approvals: typeof toolkit?.needsApproval === 'function' ? toolkit : undefined,
    system,
    messages,
    records: [],
    usage,
    memo: { value: undefined },
    turn: resumed?.turn ?? 0,
    last: undefined,
    runId: resumed?.runId,
    keyPrefix: input.runId ?? resumed?.runId,
    answeredIds: resumed?.answered ?? NO_IDS,
    handedOut: false,
    resumed,
    answer: undefined,
  }
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

/**
 * The result of a run whose last turn ended it: done (no call, or a call handed out) or out of turns.
 *
 * @example
 * const result = finishedResult(run)
 */
export function finishedResult<Message>(run: LoopRun<Message>): RunResult<Message> {
  const last = run.last as ModelTurn<Message>
  return {
    text: last.text,
    messages: run.messages,
    toolCalls: run.records,
    turns: run.turn,
    usage: run.usage,
    finishReason: last.finishReason,
    status: last.toolCalls.length === 0 || run.handedOut ? 'done' : 'max-turns',
  }
}

/**
 * Whether the run goes on after its last turn: the model called a tool of its own and turns are left.
 *
 * @example
 * if (!goesOn(run)) return finishedResult(run)
 */
export function goesOn<Message>(run: LoopRun<Message>): boolean {
  const last = run.last as ModelTurn<Message>
  return !(last.toolCalls.length === 0 || run.handedOut || run.turn >= run.settings.maxTurns)
}
