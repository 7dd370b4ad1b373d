// A suspended run as plain, sealed JSON data, and the checks a resume makes before anything runs.

import { ApprovalError } from '../errors.js'
import type { Usage } from '../loop/types.js'
import { isRecord } from '../shared/is-record.js'
import { digest, sameDigest } from './digest.js'
import { canonicalJson, toJsonData } from './json-data.js'

/**
 * A call that waits for a person's approval. Answer it with `approvalId` in `client.resume`.
 *
 * @example
 * const pending: PendingApproval = { approvalId: 'approval_3q…', toolCallId: 'call_1', toolName: 'delete_file', args: { path: 'a.txt' } }
 */
export interface PendingApproval {
  approvalId: string
  toolCallId: string
  toolName: string
  args: Record<string, unknown>
}

/**
 * A person's answer to one pending call. A denial may say why; the model reads the reason.
 *
 * @example
 * const answers: ApprovalResponse[] = [
 *   { approvalId: pending[0].approvalId, approved: true },
 *   { approvalId: pending[1].approvalId, approved: false, reason: 'Not on a Friday.' },
 * ]
 */
export type ApprovalResponse =
  | { approvalId: string; approved: true }
  | { approvalId: string; approved: false; reason?: string }

/** One call of the suspended turn, in call order: answered (`result`) or waiting (`approvalId`). */
export interface RunStateCall {
  toolCallId: string
  toolName: string
  /** True when the provider sent no id and the transport made one up (the answer then carries none). */
  idGenerated?: true
  /** The arguments as recorded (an object, or the raw text when the model sent no JSON object). */
  args: unknown
  /** The call's result, once it has one. */
  result?: { output: string; isError: boolean; metadata?: Record<string, unknown> }
  /** While it waits: the id its answer must carry. */
  approvalId?: string
}

/**
 * Everything a suspended run needs to go on, as plain JSON data: the transcript up to the model turn that
 * made the calls, that turn's calls (each answered or waiting), and the run's counters. No tools, no
 * functions, no system prompt: those come from the client and the toolkit that resume it. Sealed: a
 * digest over the whole state (an HMAC when the client has a `secret`) refuses any change.
 *
 * @example
 * const text = JSON.stringify(result.state)   // keep it anywhere
 * await client.resume(JSON.parse(text), { toolkit, approvals })
 */
export interface RunState {
  type: 'toolnexus-run-state'
  version: 1
  /** Which client made it: `'ai-sdk'` (AI SDK `ModelMessage`s) or `'genai'` (Gemini `Content`s). */
  transport: RunStateTransport
  /** Random, per run: approval ids of one run never match another's. */
  runId: string
  /** Model calls made so far. */
  turn: number
  usage: Usage
  /** The text and finish reason of the model turn that made the calls. */
  text: string
  finishReason: string
  /** The transcript, ending with the model turn that made the calls (their results are in `calls`). */
  messages: unknown[]
  calls: RunStateCall[]
  /** Approval ids answered earlier in this run. */
  answered: string[]
  /** `sha256:` or `hmac-sha256:` and the base64url digest of everything else. */
  seal: string
}

/** The transports a run state can belong to. */
export type RunStateTransport = 'ai-sdk' | 'genai'

/** What sealing and opening a state need to know of the client. */
export interface RunStateKeys {
  transport: RunStateTransport
  /** Signs with HMAC-SHA-256 and accepts only states signed with it. */
  secret: string | undefined
}

/**
 * The approval id of one waiting call: a digest binding the run, the turn, the call id and the call's
 * arguments, so that an answer fits that call alone and any change to the call breaks it.
 *
 * @example
 * const approvalId = await approvalIdFor({ keys, runId, turn: 1, toolCallId: 'call_1', args: { path: 'a.txt' } })
 */
export async function approvalIdFor(options: {
  keys: RunStateKeys
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
  parts: Omit<RunState, 'type' | 'version' | 'transport' | 'seal'>,
): Promise<RunState> {
  const data = toJsonData({
    type: 'toolnexus-run-state',
    version: 1,
    transport: keys.transport,
    ...parts,
  }) as Omit<RunState, 'seal'>
  return { ...data, seal: await sealOf(keys, data) }
}

/**
 * Reads a state handed to a resume (the object, or its JSON text) and checks it: its shape, that it
 * belongs to this kind of client, its seal, and that every waiting call still has the approval id its
 * arguments give. Throws an `ApprovalError` for anything else; nothing has run then.
 *
 * @example
 * const state = await openRunState(keys, JSON.parse(text))
 */
export async function openRunState(keys: RunStateKeys, given: unknown): Promise<RunState> {
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
  const { seal, ...data } = state
  const signed = seal.startsWith('hmac-sha256:')
  if (keys.secret !== undefined && !signed) {
    throw new ApprovalError(
      'The run state is not signed, and this client has a `secret`: it resumes only states it signed.',
      { code: 'altered-state' },
    )
  }
  if (keys.secret === undefined && signed) {
    throw new ApprovalError(
      'The run state is signed with a secret, and this client has none: create it with the same `secret`.',
      { code: 'altered-state' },
    )
  }
  if (!sameDigest(await sealOf(keys, data), seal)) {
    throw new ApprovalError('The run state was changed after it was made; nothing ran.', {
      code: 'altered-state',
    })
  }
  for (const call of state.calls) {
    if (call.approvalId === undefined) continue
    const expected = await approvalIdFor({
      keys,
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
  return state
}

/**
 * Checks the answers against the state's waiting calls, all before anything runs: each must be well
 * formed, name a call that waits (not one answered before, in this state or as `consumed` by this
 * client), and appear once. Returns the answers by approval id.
 *
 * @example
 * const answers = checkApprovals({ state, approvals, consumed })
 */
export function checkApprovals(options: {
  state: RunState
  approvals: unknown
  consumed?: { has(approvalId: string): boolean }
}): Map<string, ApprovalResponse> {
  const { state, approvals, consumed } = options
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
    if (answered.has(approvalId) || (waiting.has(approvalId) && consumed?.has(approvalId) === true)) {
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

function sealOf(keys: RunStateKeys, data: unknown): Promise<string> {
  const text = canonicalJson(data)
  return digest({ text, secret: keys.secret }).then(
    (value) => `${keys.secret === undefined ? 'sha256' : 'hmac-sha256'}:${value}`,
  )
}

function describeTransport(transport: RunStateTransport): string {
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
  const { transport, runId, turn, usage, text, finishReason, messages, calls, answered, seal } = value
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

function isCall(value: unknown): value is RunStateCall {
  if (!isRecord(value) || typeof value.toolCallId !== 'string' || typeof value.toolName !== 'string')
    return false
  if (value.idGenerated !== undefined && value.idGenerated !== true) return false
  const { result, approvalId } = value
  if (approvalId !== undefined)
    return typeof approvalId === 'string' && result === undefined && isRecord(value.args)
  return (
    isRecord(result) &&
    typeof result.output === 'string' &&
    typeof result.isError === 'boolean' &&
    (result.metadata === undefined || isRecord(result.metadata))
  )
}
