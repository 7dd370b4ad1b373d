// Ending a run suspended: the sealed state of the turn whose calls wait, and the transcript that answers
// each waiting call "not run", so that it is valid history as it is.

import type {
  PendingApproval,
  PendingTask,
  RunStateCall,
  SuspendedRunResult,
  ToolCallRecord,
  Usage,
} from '../contracts/run-types.js'
import type { ModelToolCall, ModelTurn, Transport } from '../contracts/transport.js'
import { pendingTaskOf } from '../tool/pending-task.js'
import { errorResult } from '../tool/tool-result.js'
import type { ToolResult } from '../tool/types.js'
import type { ApprovalGuard } from './approval-guard.js'
import type { CallPreset, HoldableCall } from './hold-calls.js'
import { type RunStateKeys, sealRunState } from './run-state.js'

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
const NOT_RUN_WHILE_WAITING = 'Not run: this call waits for the user’s approval.'

/**
 * Ends the run suspended: seals the state (transcript, the turn's calls with the results they have, the
 * tasks still running, and the run's counters) and answers every call waiting for approval in `messages`
 * with an error result saying it was not run (a running task's call with its pending-task result), so
 * that the transcript is valid history as it is. The guard sees the state before anyone does.
 */
export async function suspendRun<Message>(
  options: SuspendOptions<Message>,
): Promise<SuspendedRunResult<Message>> {
  const { transport, keys, guard, runId, answered, calls, presets, results, messages, turn, usage, last } =
    options
  const byId = new Map(results.map((each) => [each.call, each.result]))
  const pending: PendingApproval[] = []
  const tasks: PendingTask[] = []
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
      everyAnswer.push({ call, result })
      // A call still running as a task keeps its task, not its placeholder: the resume fetches the result.
      const task = pendingTaskOf(result)
      if (task !== undefined) {
        entry.task = { server: task.server, tool: task.tool, taskId: task.taskId }
        tasks.push({ toolCallId: call.id, toolName: call.name, server: task.server, taskId: task.taskId })
      } else {
        entry.result =
          result.metadata === undefined
            ? { output: result.output, isError: result.isError }
            : { output: result.output, isError: result.isError, metadata: result.metadata }
      }
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
    tasks,
    state,
    text: last.text,
    messages: [...messages, ...transport.toolResultsMessages(everyAnswer)],
    toolCalls: options.records,
    turns: turn,
    usage,
    finishReason: last.finishReason,
  }
}
