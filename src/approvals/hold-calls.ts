// Which calls of a turn wait for a person, and the approval id each waiting call gets. Used only when a
// toolkit has tools that need approval, or on resume.

import type { ModelToolCall } from '../contracts/transport.js'
import type { PendingTaskMark } from '../tool/pending-task.js'
import type { ToolResult } from '../tool/types.js'
import { callNeedsApproval } from '../toolkit/check-call.js'
import type { CheckedCall, Toolkit } from '../toolkit/toolkit.js'
import { approvalIdFor, type RunStateKeys } from './run-state.js'

/** A turn's call as the loop prepared it (see run-loop). */
export interface HoldableCall {
  call: ModelToolCall
  args: unknown
  problem: string | undefined
  /** The call as the toolkit checked it for its approval, when it did: its run uses the same check. */
  checked?: CheckedCall | undefined
  /** A resumed call that ran as an MCP task: its result is asked of the server, the tool is not run. */
  task?: PendingTaskMark | undefined
}

/**
 * How a call of the turn is settled before its tools run: answered already (`fresh` when the answer is
 * new in this resume, a denial), or waiting for approval. Calls without a preset run as usual.
 */
export type CallPreset =
  | { kind: 'answered'; result: ToolResult; fresh: boolean; reason?: string }
  | { kind: 'held'; approvalId: string }

/**
 * Which calls wait for approval, by index; `undefined` when none does (the common case, decided without
 * allocating when no rule is a function). A promise only when some tool's rule is one that is async.
 * Each call is asked as the MCP server asks it (`callNeedsApproval`): only a plain "no" lets it run.
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
    const { name, id } = prepared.call
    const approval = callNeedsApproval(toolkit, name, prepared.args as Record<string, unknown>, id)
    // Checked once: the run takes the same check.
    if (approval.checked !== undefined) prepared.checked = approval.checked
    const verdict = approval.needsApproval
    if (verdict === false) continue
    verdicts ??= calls.map(() => false)
    verdicts[index] = verdict
    if (verdict !== true) later = true
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

/**
 * Like running every call with a bound, but only the calls without a preset run; the others' slots hold
 * no promise.
 */
export function runUnanswered<Call, Value>(options: {
  calls: readonly Call[]
  presets: readonly (CallPreset | undefined)[]
  run: (calls: Call[]) => Array<Value | Promise<Value>>
}): Array<Value | Promise<Value> | undefined> {
  const { calls, presets, run } = options
  const indices: number[] = []
  const chosen: Call[] = []
  for (const [index, call] of calls.entries()) {
    if (presets[index] !== undefined) continue
    indices.push(index)
    chosen.push(call)
  }
  const running = run(chosen)
  const slots: Array<Value | Promise<Value> | undefined> = calls.map(() => undefined)
  for (const [position, index] of indices.entries()) slots[index] = running[position]
  return slots
}
