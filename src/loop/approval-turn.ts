// The loop's approval steps: which calls of a turn wait for a person, the suspended run they leave, and the
// turn a resume starts in. Used only when a toolkit has tools that need approval, or on resume.

import { type ApprovalGuard, takeVouched } from '../approvals/approval-guard.js'
import {
  approvalIdFor,
  checkApprovals,
  openRunState,
  type PendingApproval,
  type RunStateCall,
  type RunStateKeys,
  sealRunState,
} from '../approvals/run-state.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import { errorResult } from '../tool/tool-result.js'
import type { ToolResult } from '../tool/types.js'
import type { CheckedCall, Toolkit } from '../toolkit/toolkit.js'
import type { ModelToolCall, ModelTurn, Transport } from './transport.js'
import type { SuspendedRunResult, ToolCallRecord, Usage } from './types.js'

/** A turn's call as the loop prepared it (see run-loop). */
export interface HoldableCall {
  call: ModelToolCall
  args: unknown
  problem: string | undefined
  /** The call as the toolkit checked it for its approval, when it did: its run uses the same check. */
  checked?: CheckedCall | undefined
}

/**
 * How a call of the turn is settled before its tools run: answered already (`fresh` when the answer is
 * new in this resume, a denial), or waiting for approval. Calls without a preset run as usual.
 */
export type CallPreset =
  | { kind: 'answered'; result: ToolResult; fresh: boolean; reason?: string }
  | { kind: 'held'; approvalId: string }

/** The run a resume goes on with: where it stopped, and how each call of that turn stands. */
export interface ResumedRun {
  runId: string
  answered: string[]
  messages: unknown[]
  turn: number
  usage: Usage
  last: ModelTurn<unknown>
  calls: HoldableCall[]
  presets: Array<CallPreset | undefined>
}

/**
 * Which calls wait for approval, by index; `undefined` when none does (the common case, decided without
 * allocating when no rule is a function). A promise only when some tool's rule is one that is async.
 */
export function findHeldCalls(
  calls: readonly HoldableCall[],
  toolkit: Pick<Toolkit, 'needsApproval' | 'checkCall'>,
): boolean[] | undefined | Promise<boolean[] | undefined> {
  let verdicts: Array<boolean | Promise<boolean>> | undefined
  let later = false
  for (let index = 0; index < calls.length; index++) {
    const prepared = calls[index] as HoldableCall
    if (prepared.problem !== undefined || typeof prepared.args !== 'object' || prepared.args === null)
      continue
    let verdict: boolean | Promise<boolean>
    const { name, id } = prepared.call
    const args = prepared.args as Record<string, unknown>
    try {
      if (toolkit.checkCall === undefined) verdict = toolkit.needsApproval(name, args, id)
      else {
        // Checked once: the run takes the same check.
        prepared.checked = toolkit.checkCall(name, args, id)
        verdict = prepared.checked?.needsApproval ?? false
      }
    } catch {
      // A custom Toolkit that throws here cannot say the call is safe: ask.
      verdict = true
    }
    if (verdict === false) continue
    verdicts ??= calls.map(() => false)
    if (isPromiseLike(verdict)) {
      later = true
      verdicts[index] = Promise.resolve(verdict).then(Boolean, () => true)
    } else verdicts[index] = verdict === true
  }
  if (verdicts === undefined) return undefined
  if (!later) return verdicts.some(Boolean) ? (verdicts as boolean[]) : undefined
  return Promise.all(verdicts).then((settled) => (settled.some(Boolean) ? settled : undefined))
}

/** The presets of a turn with waiting calls: each waiting call gets its approval id. */
export async function holdCalls(options: {
  calls: readonly HoldableCall[]
  held: readonly boolean[]
  keys: RunStateKeys
  runId: string
  turn: number
}): Promise<Array<CallPreset | undefined>> {
  const { calls, held, keys, runId, turn } = options
  const presets: Array<CallPreset | undefined> = calls.map(() => undefined)
  for (const [index, prepared] of calls.entries()) {
    if (held[index] !== true) continue
    presets[index] = {
      kind: 'held',
      approvalId: await approvalIdFor({
        keys,
        runId,
        turn,
        toolCallId: prepared.call.id,
        args: prepared.args,
      }),
    }
  }
  return presets
}

/** What the loop hands `suspendRun`. */
export interface SuspendOptions<Message> {
  transport: Transport<Message>
  keys: RunStateKeys
  /** Refuses to hand out a state that could be replayed; reserves its claim. */
  guard: ApprovalGuard
  runId: string
  /** Approval ids answered earlier in the run (this resume's included). */
  answered: string[]
  calls: readonly HoldableCall[]
  presets: readonly (CallPreset | undefined)[]
  /** The results the turn has so far, in call order, waiting calls left out. */
  results: ReadonlyArray<{ call: ModelToolCall; result: ToolResult }>
  messages: Message[]
  turn: number
  usage: Usage
  last: ModelTurn<Message>
  records: ToolCallRecord[]
  /** The recorded arguments of each call (the raw text when they were no JSON object). */
  recordedArgs: (call: HoldableCall) => unknown
}

/** The text a waiting call is answered with in `result.messages` (never in the resumed transcript). */
export const NOT_RUN_WHILE_WAITING = 'Not run: this call waits for the user’s approval.'

/**
 * Ends the run suspended: seals the state (transcript, the turn's calls with the results they have, and
 * the run's counters) and answers every waiting call in `messages` with an error result saying it was not
 * run, so that the transcript is valid history as it is. The guard sees the state before anyone does.
 */
export async function suspendRun<Message>(
  options: SuspendOptions<Message>,
): Promise<SuspendedRunResult<Message>> {
  const { transport, keys, guard, runId, answered, calls, presets, results, messages, turn, usage, last } =
    options
  const byId = new Map(results.map((each) => [each.call, each.result]))
  const pending: PendingApproval[] = []
  const stateCalls: RunStateCall[] = []
  const everyAnswer: Array<{ call: ModelToolCall; result: ToolResult }> = []
  for (const [index, prepared] of calls.entries()) {
    const { call } = prepared
    const preset = presets[index]
    const entry: RunStateCall = {
      toolCallId: call.id,
      toolName: call.name,
      args: options.recordedArgs(prepared),
    }
    if (call.idGenerated === true) entry.idGenerated = true
    if (preset?.kind === 'held') {
      const args = prepared.args as Record<string, unknown>
      entry.args = args
      entry.approvalId = preset.approvalId
      pending.push({ approvalId: preset.approvalId, toolCallId: call.id, toolName: call.name, args })
      everyAnswer.push({ call, result: errorResult(NOT_RUN_WHILE_WAITING) })
    } else {
      const result = byId.get(call) ?? errorResult('The call has no result.')
      entry.result =
        result.metadata === undefined
          ? { output: result.output, isError: result.isError }
          : { output: result.output, isError: result.isError, metadata: result.metadata }
      everyAnswer.push({ call, result })
    }
    stateCalls.push(entry)
  }
  const state = await sealRunState(keys, {
    runId,
    turn,
    usage,
    text: last.text,
    finishReason: last.finishReason,
    messages,
    calls: stateCalls,
    answered,
  })
  guard.suspend(state)
  return {
    status: 'suspended',
    pending,
    state,
    text: last.text,
    messages: [...messages, ...transport.toolResultsMessages(everyAnswer)],
    toolCalls: options.records,
    turns: turn,
    usage,
    finishReason: last.finishReason,
  }
}

/**
 * Opens a resume: checks the state and the answers (an `ApprovalError`, with nothing run, when either is
 * altered, expired or for another call), claims the run through the guard (refused as a replay when it
 * was answered before, anywhere the claims reach), and sets up the stopped turn: approved calls run,
 * denied ones get an error result saying the user declined, unanswered ones wait. A state the caller
 * vouched for was checked and claimed by it.
 */
export async function openResume(
  resume: { state: unknown; approvals: unknown },
  keys: RunStateKeys,
  claim: ApprovalGuard['claim'],
): Promise<ResumedRun> {
  const trusted = takeVouched(resume.state)
  const state = await openRunState(keys, resume.state, { trusted })
  const answers = checkApprovals({ state, approvals: resume.approvals })
  if (!trusted) await claim(state)
  const calls: HoldableCall[] = []
  const presets: Array<CallPreset | undefined> = []
  const toolCalls: ModelToolCall[] = []
  for (const [index, entry] of state.calls.entries()) {
    const args = entry.args
    const call: ModelToolCall = {
      id: entry.toolCallId,
      name: entry.toolName,
      input: typeof args === 'string' ? args : (args as Record<string, unknown>),
      ...(entry.idGenerated === true && { idGenerated: true }),
    }
    toolCalls.push(call)
    calls.push({ call, args, problem: undefined })
    if (entry.approvalId === undefined) {
      const result = entry.result ?? errorResult('The call has no result.')
      presets[index] = { kind: 'answered', result, fresh: false }
      continue
    }
    const answer = answers.get(entry.approvalId)
    if (answer === undefined) presets[index] = { kind: 'held', approvalId: entry.approvalId }
    else if (!answer.approved) {
      const reason = answer.reason
      presets[index] = {
        kind: 'answered',
        fresh: true,
        result: errorResult(
          `The user declined this call to "${entry.toolName}"; it was not run.${reason === undefined ? '' : ` The user said: ${reason}`}`,
        ),
        ...(reason === undefined ? {} : { reason }),
      }
    }
    // Approved: no preset, so it runs like any call.
  }
  return {
    runId: state.runId,
    answered: [...state.answered, ...answers.keys()],
    // A copy: the loop appends to it, and the caller's state must stay as it was.
    messages: [...state.messages],
    turn: state.turn,
    usage: state.usage,
    last: {
      text: state.text,
      finishReason: state.finishReason,
      toolCalls,
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      message: undefined,
      response: undefined,
    },
    calls,
    presets,
  }
}

/**
 * Like running every call with a bound, but only the calls without a preset run; the others' slots hold
 * no promise.
 */
export function runUnanswered<Call, Value>(options: {
  calls: readonly Call[]
  presets: readonly (CallPreset | undefined)[]
  run: (calls: Call[]) => Promise<Value>[]
}): Array<Promise<Value> | undefined> {
  const { calls, presets, run } = options
  const indices: number[] = []
  const chosen: Call[] = []
  for (const [index, call] of calls.entries()) {
    if (presets[index] !== undefined) continue
    indices.push(index)
    chosen.push(call)
  }
  const running = run(chosen)
  const slots: Array<Promise<Value> | undefined> = calls.map(() => undefined)
  for (const [position, index] of indices.entries()) slots[index] = running[position]
  return slots
}
