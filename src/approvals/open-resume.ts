// Opening a resume: the state and the answers checked, the run claimed, and the stopped turn set up for the
// loop to go on with.

import type { Usage } from '../contracts/run-types.js'
import type { ModelToolCall, ModelTurn } from '../contracts/transport.js'
import { errorResult } from '../tool/tool-result.js'
import { type ApprovalGuard, takeVouched } from './approval-guard.js'
import type { CallPreset, HoldableCall } from './hold-calls.js'
import { checkApprovals, openRunState, type RunStateKeys } from './run-state.js'

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
 * Opens a resume: checks the state and the answers (an `ApprovalError`, with nothing run, when either is
 * altered, expired or for another call), claims the run through the guard (refused as a replay when it
 * was answered before, anywhere the claims reach), and sets up the stopped turn: approved calls run,
 * denied ones get an error result saying the user declined, unanswered ones wait. A state the caller
 * vouched for was checked and claimed by it.
 */
export async function openResume(
  resume: { state: unknown; approvals?: unknown },
  keys: RunStateKeys,
  claim: ApprovalGuard['claim'],
): Promise<ResumedRun> {
  const trusted = takeVouched(resume.state)
  const state = await openRunState(keys, resume.state, { trusted })
  const answers = checkApprovals({ state, approvals: resume.approvals ?? [] })
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
    // A call running as a task: no preset, and its result is asked of its server (the tool never runs).
    if (entry.task !== undefined) {
      calls.push({ call, args, problem: undefined, task: { ...entry.task } })
      continue
    }
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
