import type { ApprovalGuard } from '../approvals/approval-guard.js'
import { openResume } from '../approvals/open-resume.js'
import type { RunTelemetry } from '../contracts/run-telemetry.js'
import type { RunEvent, RunResult } from '../contracts/run-types.js'
import type { ModelTurn } from '../contracts/transport.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import { addUsage } from './add-usage.js'
import type { LoopInput } from './loop-input.js'
import type { LoopRun } from './loop-run.js'
import { RunScope } from './run-scope.js'
import { SearchSession } from './search-session.js'
import { takeTurn } from './take-turn.js'

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
  const { settings } = input
  // `run` wants only the result: events are built and yielded for streams alone.
  const streaming = input.mode === 'stream'
  const scope = new RunScope({ signal: input.signal, timeoutMs: settings.timeoutMs, stop: input.stop })
  let completed = false
  let trace: RunTelemetry | undefined
  try {
    const run = await startRun(input, scope, streaming)
    trace = run.trace
    while (true) {
      const suspended = yield* takeTurn(run)
      const last = run.last as ModelTurn<Message>
      if (suspended !== undefined) {
        completed = true
        trace?.end(suspended)
        if (streaming) {
          yield { type: 'step-end', turn: run.turn, usage: last.usage }
          yield { type: 'finish', result: suspended }
        }
        return suspended
      }
      if (streaming) yield { type: 'step-end', turn: run.turn, usage: last.usage }
      if (last.toolCalls.length === 0 || run.handedOut || run.turn >= settings.maxTurns) break
    }
    const last = run.last as ModelTurn<Message>
    const result: RunResult<Message> = {
      text: last.text,
      messages: run.messages,
      toolCalls: run.records,
      turns: run.turn,
      usage: run.usage,
      finishReason: last.finishReason,
      status: last.toolCalls.length === 0 || run.handedOut ? 'done' : 'max-turns',
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

/**
 * Sets a run up: its transport (once resolved), the suspended run it resumes (claimed first), its
 * transcript, system prompt, trace and tool search.
 */
async function startRun<Message>(
  input: LoopInput<Message>,
  scope: RunScope,
  streaming: boolean,
): Promise<LoopRun<Message>> {
  const { settings, toolkit, prompt } = input
  scope.check()
  let transport = isPromiseLike(input.transport) ? await scope.race(input.transport) : input.transport
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
  const messages =
    resumed !== undefined
      ? (resumed.messages as Message[])
      : [...input.history, ...(typeof prompt === 'string' ? [transport.userMessage(prompt)] : prompt)]
  const system = joinSystem(settings.system, input.system, toolkit?.skillsPrompt())
  let trace: RunTelemetry | undefined
  if (settings.telemetry !== undefined) {
    const telemetry = isPromiseLike(settings.telemetry)
      ? await scope.race(settings.telemetry)
      : settings.telemetry
    trace = telemetry.startRun({ model: transport.model, toolkit, system, prompt })
    transport = trace.traceTransport(transport)
  }
  const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 }
  if (resumed !== undefined) addUsage(usage, resumed.usage)
  return {
    input,
    settings,
    toolkit,
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
    memo: new Map(),
    turn: resumed?.turn ?? 0,
    last: undefined,
    runId: resumed?.runId,
    keyPrefix: input.runId ?? resumed?.runId,
    answeredIds: resumed?.answered ?? [],
    handedOut: false,
    resumed,
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
