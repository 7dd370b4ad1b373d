// A suspended run as plain, sealed JSON data, and the checks a resume makes before anything runs.

import type {
  ApprovalResponse,
  MessageFormat,
  RunState,
  RunStateCall,
  Usage,
} from '../contracts/run-types.js'
import { ApprovalError } from '../errors.js'
import { isRecord } from '../shared/is-record.js'
import { MAX_TASK_ID_LENGTH } from '../tool/pending-task.js'
import { digest, sameDigest } from './digest.js'
import { canonicalJson, toJsonData } from './json-data.js'

/** What sealing and opening a state need to know of the client. */
export interface RunStateKeys {
  transport: MessageFormat
  /** Signs with HMAC-SHA-256 and accepts only states signed with it: the client's, or its process's. */
  secret: string
  /** Seconds a state may wait for its answer. */
  ttlSeconds: number
  /** Also accept states sealed by a plain SHA-256 (`unsafeAcceptHashSealedStates`): anyone can forge those. */
  acceptHashSealed?: boolean
}

/**
 * The approval id of one waiting call: a digest binding the run, the turn, the call id and the call's
 * arguments, so that an answer fits that call alone and any change to the call breaks it.
 *
 * @example
 * const approvalId = await approvalIdFor({ keys, runId, turn: 1, toolCallId: 'call_1', args: { path: 'a.txt' } })
 */
export async function approvalIdFor(options: {
  keys: { secret: string | undefined }
  runId: string
  turn: number
  toolCallId: string
  args: unknown
}): Promise<string> {
  const { keys, runId, turn, toolCallId, args } = options
  const text = canonicalJson(['approval', runId, turn, toolCallId, toJsonData(args)])
  return `approval_${(await digest({ text, secret: keys.secret })).slice(0, 32)}`
}

/**
 * Seals a state: its data copied to plain JSON, and the seal over it.
 *
 * @example
 * const state = await sealRunState(keys, { runId, turn, usage, text, finishReason, messages, calls, answered: [] })
 */
export async function sealRunState(
  keys: RunStateKeys,
  parts: Omit<RunState, 'type' | 'version' | 'transport' | 'expiresAt' | 'seal'>,
): Promise<RunState> {
  const data = toJsonData({
    type: 'toolnexus-run-state',
    version: 1,
    transport: keys.transport,
    ...parts,
    expiresAt: Date.now() + keys.ttlSeconds * 1000,
  }) as Omit<RunState, 'seal'>
  return { ...data, seal: await sealOf(keys.secret, data) }
}

/**
 * Reads a state handed to a resume (the object, or its JSON text) and checks it: its shape, that it
 * belongs to this kind of client, its seal, that every waiting call still has the approval id its
 * arguments give, and that it has not expired. Throws an `ApprovalError` for anything else; nothing has
 * run then. A `trusted` state (one the caller checked itself: a store's copy, a chat handler's signed
 * run) skips the seal and approval-id checks, made with another process's key.
 *
 * @example
 * const state = await openRunState(keys, JSON.parse(text))
 */
export async function openRunState(
  keys: RunStateKeys,
  given: unknown,
  options: { trusted?: boolean } = {},
): Promise<RunState> {
  let value = given
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value)
    } catch {
      throw new ApprovalError('The run state is text that is not JSON.', { code: 'invalid-state' })
    }
  }
  const state = readShape(value)
  if (state.transport !== keys.transport) {
    throw new ApprovalError(
      `This run state belongs to ${describeTransport(state.transport)} client; resume it with one.`,
      { code: 'invalid-state' },
    )
  }
  if (options.trusted !== true) await checkSeal(keys, state)
  if (Date.now() >= state.expiresAt) {
    // A run that waits only for MCP tasks has no approval to answer: its resume came too late.
    const waiting = state.calls.some((call) => call.approvalId !== undefined)
      ? 'its approval was not answered'
      : 'it was not resumed'
    throw new ApprovalError(
      `The run state expired: ${waiting} in time (\`approvalTtlSeconds\`); nothing ran.`,
      { code: 'expired-approval' },
    )
  }
  return state
}

async function checkSeal(keys: RunStateKeys, state: RunState): Promise<void> {
  const { seal, ...data } = state
  const signed = seal.startsWith('hmac-sha256:')
  if (!signed && keys.acceptHashSealed !== true) {
    throw new ApprovalError(
      'The run state is sealed only by a plain hash, which anyone can recompute: it is refused (states are signed now; `unsafeAcceptHashSealedStates` accepts such states, and their forgeries).',
      { code: 'altered-state' },
    )
  }
  const secret = signed ? keys.secret : undefined
  if (!sameDigest(await sealOf(secret, data), seal)) {
    throw new ApprovalError(
      'The run state was changed after it was made, or signed by another process or secret (give every instance the same `secret`, and `claims`); nothing ran.',
      { code: 'altered-state' },
    )
  }
  for (const call of state.calls) {
    if (call.approvalId === undefined) continue
    const expected = await approvalIdFor({
      keys: { secret },
      runId: state.runId,
      turn: state.turn,
      toolCallId: call.toolCallId,
      args: call.args,
    })
    if (!sameDigest(expected, call.approvalId)) {
      throw new ApprovalError(
        `The run state's call "${call.toolCallId}" does not match its approval id; nothing ran.`,
        { code: 'altered-state' },
      )
    }
  }
}

/**
 * Checks the answers against the state's waiting calls, all before anything runs: each must be well
 * formed, name a call that waits (not one answered earlier in the run), and appear once. Returns the
 * answers by approval id. (That the state itself is answered once is the claim's to make.)
 *
 * @example
 * const answers = checkApprovals({ state, approvals })
 */
export function checkApprovals(options: {
  state: RunState
  approvals: unknown
}): Map<string, ApprovalResponse> {
  const { state, approvals } = options
  if (!Array.isArray(approvals)) {
    throw new ApprovalError(
      '`approvals` must be an array like [{ approvalId, approved: true }, { approvalId, approved: false, reason }].',
      { code: 'invalid-approval' },
    )
  }
  const waiting = new Set(
    state.calls.flatMap((call) => (call.approvalId === undefined ? [] : [call.approvalId])),
  )
  const answered = new Set(state.answered)
  const answers = new Map<string, ApprovalResponse>()
  for (const [index, answer] of approvals.entries()) {
    if (!isRecord(answer) || typeof answer.approvalId !== 'string' || typeof answer.approved !== 'boolean') {
      throw new ApprovalError(
        `approvals[${index}] must be { approvalId: string, approved: boolean, reason?: string }.`,
        { code: 'invalid-approval' },
      )
    }
    const { approvalId, approved, reason } = answer
    if (reason !== undefined && typeof reason !== 'string') {
      throw new ApprovalError(`approvals[${index}].reason must be a string.`, { code: 'invalid-approval' })
    }
    const quoted = JSON.stringify(approvalId.length > 80 ? `${approvalId.slice(0, 80)}…` : approvalId)
    if (answers.has(approvalId)) {
      throw new ApprovalError(`Approval ${quoted} is answered twice in one resume.`, {
        code: 'invalid-approval',
      })
    }
    if (answered.has(approvalId)) {
      throw new ApprovalError(`Approval ${quoted} was already answered; nothing ran.`, {
        code: 'replayed-approval',
      })
    }
    if (!waiting.has(approvalId)) {
      throw new ApprovalError(`Approval ${quoted} is not for a call this run waits on; nothing ran.`, {
        code: 'unknown-approval',
      })
    }
    answers.set(
      approvalId,
      approved
        ? { approvalId, approved }
        : { approvalId, approved, ...(typeof reason === 'string' && reason !== '' && { reason }) },
    )
  }
  return answers
}

function sealOf(secret: string | undefined, data: unknown): Promise<string> {
  const text = canonicalJson(data)
  return digest({ text, secret }).then(
    (value) => `${secret === undefined ? 'sha256' : 'hmac-sha256'}:${value}`,
  )
}

function describeTransport(transport: MessageFormat): string {
  return transport === 'genai' ? 'a @google/genai' : 'an AI SDK'
}

const MALFORMED = 'The run state is not one toolnexus made (pass result.state, or its JSON text, as it is).'

/** The state's shape, checked field by field: it may come from anywhere. */
function readShape(value: unknown): RunState {
  if (!isRecord(value) || value.type !== 'toolnexus-run-state')
    throw new ApprovalError(MALFORMED, { code: 'invalid-state' })
  if (value.version !== 1) {
    throw new ApprovalError(
      `The run state has version ${JSON.stringify(value.version)}; this toolnexus reads version 1.`,
      { code: 'invalid-state' },
    )
  }
  const { transport, runId, turn, usage, text, finishReason, messages, calls, answered, expiresAt, seal } =
    value
  const wellFormed =
    (transport === 'ai-sdk' || transport === 'genai') &&
    typeof runId === 'string' &&
    Number.isInteger(turn) &&
    (turn as number) >= 1 &&
    isUsage(usage) &&
    typeof text === 'string' &&
    typeof finishReason === 'string' &&
    Array.isArray(messages) &&
    Array.isArray(calls) &&
    calls.length > 0 &&
    calls.every(isCall) &&
    Array.isArray(answered) &&
    answered.every((id) => typeof id === 'string') &&
    typeof expiresAt === 'number' &&
    Number.isFinite(expiresAt) &&
    typeof seal === 'string'
  if (!wellFormed) throw new ApprovalError(MALFORMED, { code: 'invalid-state' })
  return value as unknown as RunState
}

function isUsage(value: unknown): value is Usage {
  return (
    isRecord(value) &&
    typeof value.inputTokens === 'number' &&
    typeof value.outputTokens === 'number' &&
    typeof value.totalTokens === 'number'
  )
}

/** A call's running task: strings for its server and tool, and a task id of bounded length. */
function isTask(task: unknown): boolean {
  return (
    isRecord(task) &&
    typeof task.server === 'string' &&
    typeof task.tool === 'string' &&
    typeof task.taskId === 'string' &&
    task.taskId.length <= MAX_TASK_ID_LENGTH
  )
}

function isCall(value: unknown): value is RunStateCall {
  if (!isRecord(value) || typeof value.toolCallId !== 'string' || typeof value.toolName !== 'string')
    return false
  if (value.idGenerated !== undefined && value.idGenerated !== true) return false
  const { result, approvalId, task } = value
  if (task !== undefined) return approvalId === undefined && result === undefined && isTask(task)
  if (approvalId !== undefined)
    return typeof approvalId === 'string' && result === undefined && isRecord(value.args)
  return (
    isRecord(result) &&
    typeof result.output === 'string' &&
    typeof result.isError === 'boolean' &&
    (result.metadata === undefined || isRecord(result.metadata))
  )
}
