import type { JSONObject, SpecContentPart, SpecMessage } from '../ai-sdk/language-model-spec.js'
import type { ApprovalResponse, SuspendedRunResult } from '../contracts/run-types.js'
import { isRecord } from '../shared/is-record.js'
import { TOOLNEXUS_MARK } from './convert-provider-form-prompt.js'
import { toolCallPart } from './tool-call-part.js'

/**
 * The answers a prompt brings to a run the wrapper suspended: the AI SDK ends the prompt with a tool
 * message of `tool-approval-response` parts after its user answered the approval requests, and the run's
 * sealed state rides on the wrapper's first waiting call (its provider metadata, which the AI SDK hands
 * back as the call's provider options). Only answers to that run's approval ids are taken: the others
 * belong to a provider's own tools.
 */
export interface ApprovalAnswers {
  /** The sealed run state, as the wrapper left it. */
  state: unknown
  approvals: ApprovalResponse[]
  /** The ids of the calls the answers are for, in the state's call order. */
  callIds: string[]
  /** Each waiting call's name and arguments, by id: a released call is reported again beside its result. */
  calls: ReadonlyMap<string, { toolName: string; args: unknown }>
  /** The ids of the calls the user declined: the AI SDK reports those itself. */
  declined: ReadonlySet<string>
}

/**
 * The answers the last message of `prompt` gives to the newest run state in it, if it gives any.
 *
 * @example
 * const answers = findApprovalAnswers(options.prompt)
 * if (answers !== undefined) runLoop({ ..., resume: { state: answers.state, approvals: answers.approvals } })
 */
export function findApprovalAnswers(prompt: readonly SpecMessage[]): ApprovalAnswers | undefined {
  const last = prompt.at(-1)
  if (last?.role !== 'tool') return undefined
  const responses = last.content.filter((part) => part.type === 'tool-approval-response') as Array<{
    approvalId?: unknown
    approved?: unknown
    reason?: unknown
  }>
  if (responses.length === 0) return undefined
  const state = newestState(prompt)
  if (state === undefined) return undefined
  const callOf = new Map<string, string>()
  const calls = new Map<string, { toolName: string; args: unknown }>()
  for (const entry of Array.isArray(state.calls) ? state.calls : []) {
    if (isRecord(entry) && typeof entry.approvalId === 'string' && typeof entry.toolCallId === 'string') {
      callOf.set(entry.approvalId, entry.toolCallId)
      calls.set(entry.toolCallId, { toolName: String(entry.toolName), args: entry.args })
    }
  }
  const approvals: ApprovalResponse[] = []
  const answered = new Set<string>()
  const declined = new Set<string>()
  for (const response of responses) {
    const { approvalId, approved, reason } = response
    if (typeof approvalId !== 'string' || !callOf.has(approvalId)) continue
    const toolCallId = callOf.get(approvalId) as string
    answered.add(toolCallId)
    if (approved === true) approvals.push({ approvalId, approved: true })
    else {
      declined.add(toolCallId)
      approvals.push(
        typeof reason === 'string'
          ? { approvalId, approved: false, reason }
          : { approvalId, approved: false },
      )
    }
  }
  if (approvals.length === 0) return undefined
  const callIds = [...callOf.values()].filter((id) => answered.has(id))
  return { state, approvals, callIds, declined, calls }
}

function newestState(prompt: readonly SpecMessage[]): Record<string, unknown> | undefined {
  for (let index = prompt.length - 1; index >= 0; index--) {
    const message = prompt[index] as SpecMessage
    if (message.role !== 'assistant') continue
    for (const part of message.content) {
      const mark = part.providerOptions?.[TOOLNEXUS_MARK]
      if (isRecord(mark) && isRecord(mark.state)) return mark.state
    }
  }
  return undefined
}

/**
 * What a suspended run reports: each waiting call's approval request, after its call. A waiting call that
 * is not among `reported` (it waits since an earlier call of the model) is reported again, so that its
 * request has its call. The first waiting call carries the run's sealed state, which comes back with it
 * when the AI SDK sends the user's answers.
 *
 * @example
 * if (result.status === 'suspended') content.push(...approvalParts(result, content))
 */
export function approvalParts(
  result: SuspendedRunResult<SpecMessage>,
  reported: SpecContentPart[],
): SpecContentPart[] {
  const parts: SpecContentPart[] = []
  for (const [index, pending] of result.pending.entries()) {
    let callPart = reported.find(
      (part) => part.type === 'tool-call' && part.toolCallId === pending.toolCallId,
    )
    if (callPart === undefined) {
      callPart = toolCallPart(
        { id: pending.toolCallId, name: pending.toolName, input: pending.args },
        true,
        undefined,
      )
      parts.push(callPart)
    }
    if (index === 0)
      callPart.providerMetadata = {
        ...callPart.providerMetadata,
        // A run state is plain JSON data by construction (sealed as such).
        [TOOLNEXUS_MARK]: { state: result.state as unknown as JSONObject },
      }
    parts.push({
      type: 'tool-approval-request',
      approvalId: pending.approvalId,
      toolCallId: pending.toolCallId,
    })
  }
  return parts
}
