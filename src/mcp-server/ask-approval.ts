import {
  acceptedContent,
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  type InputRequest,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server'
import { capText } from '../shared/cap-text.js'
import type { ClaimStore } from '../shared/claim-store.js'
import { isRecord } from '../shared/is-record.js'
import type { Logger } from '../shared/logger.js'
import { toJsonText } from '../tool/tool-result.js'
import { callerTags, FOREIGN_STATE, importStateKey, refuseForeignState } from './caller-binding.js'
import { claimRequestState, REQUEST_STATE_TTL_SECONDS, reserveRequestState } from './claim-request-state.js'
import { argsDigest } from './served-state.js'

// The arguments shown in an approval question are the client's own, but a person reads them: keep it short.
const MAX_QUESTION_ARGS_CHARS = 2000
// The key of the approval question among a call's input requests, and of its answer on the retry.
const APPROVAL_KEY = 'approval'

/** What a question carries to its retry, sealed: the call it was asked for (the arguments as a digest). */
interface ApprovalState {
  tool: string
  args: string
  /** Makes the question one of a kind, so that its answer is taken once. */
  nonce: string
  /** The caller it was asked of, as a tag (an HMAC of the identity, never the identity itself). */
  to: string
  /** Absent on an approval question; a forwarded round's state says `forward`. */
  kind?: undefined
}

/** The seal of approval questions, and the claim that takes an approving answer once. */
export interface ApprovalCodec {
  /** Seals a question asked of `caller` (room for its claim reserved first: a full guard refuses it). */
  mint(payload: Omit<ApprovalState, 'to'>, ctx: ServerContext, caller: string): Promise<string>
  /**
   * The question a state seals, or {@link FOREIGN_STATE} when it was asked of another caller; throws
   * when it is malformed, tampered, expired or sealed for another method.
   */
  verify(state: string, ctx: ServerContext, caller: string): Promise<ApprovalState | typeof FOREIGN_STATE>
  /** Claims an answered question before its call runs; rejects (invalid params) when claimed before. */
  claim(state: ApprovalState): Promise<void>
}

/**
 * How a call that needs approval goes on: `run` it, `refuse` it with the text of an error result, or
 * `ask` the client's user (the input-required answer to send).
 */
export type ApprovalVerdict =
  | { kind: 'run' }
  | { kind: 'refuse'; reason: string }
  | { kind: 'ask'; result: InputRequiredResult }

/**
 * The seal of approval questions: an HMAC over what the retry must echo, so a client cannot claim an
 * answer to a question it was never asked (for other arguments, another tool), with a ten-minute expiry
 * and a nonce an approving answer is claimed by in `claims`, so that it runs the call once on any number
 * of instances. The question names the caller it was asked of by a tag, so that another caller's retry
 * is refused. Every instance serving the retry needs the same key; without one, a random key for this
 * process. A failing store is reported to `logger`.
 *
 * @example
 * const codec = approvalCodec(process.env.MCP_STATE_KEY, createRedisStore({ url }), logger)
 */
export function approvalCodec(
  key: string | Uint8Array | undefined,
  claims: ClaimStore,
  logger?: Logger,
): ApprovalCodec {
  const { raw, hmac } = importStateKey(key)
  const tags = callerTags(hmac)
  const sealed = createRequestStateCodec<ApprovalState>({
    key: raw,
    ttlSeconds: REQUEST_STATE_TTL_SECONDS,
    bind: (ctx) => ctx.mcpReq.method,
  })
  return {
    async mint(payload, ctx, caller) {
      reserveRequestState(claims, payload.nonce)
      return sealed.mint({ ...payload, to: await tags.tag(caller) }, ctx)
    },
    async verify(state, ctx, caller) {
      const payload = await sealed.verify(state, ctx)
      // Sealed by this handler, for someone else: refused as another caller's, nothing of it handed on.
      return (await tags.matches(payload.to, caller)) ? payload : FOREIGN_STATE
    },
    claim: (state) => claimRequestState(claims, state.nonce, logger),
  }
}

/**
 * Asks whether a call may run, as a multi-round-trip request: the first round answers `input_required`
 * with a yes/no form and the sealed call; the retry carries the user's answer, which counts only for the
 * call it was asked about, and approves it once: the same approving retry again, on this instance or
 * another sharing the claims, is refused with invalid params. On a 2025-era session the SDK asks the
 * same form through elicitation and re-enters the handler. A client that cannot show a form, a server
 * with no way to receive the answer (`canAsk` false: stateless 2025 serving), or one that does not know
 * its caller (`servesApprovals` false: no `authorize`) gets a refusal and the call is not run.
 *
 * @example
 * const verdict = await askApproval({ server, ctx, codec, name, args, era: 'modern', canAsk: true, servesApprovals: true, caller })
 */
export async function askApproval(options: {
  server: Server
  ctx: ServerContext
  codec: ApprovalCodec
  name: string
  args: Record<string, unknown>
  era: 'legacy' | 'modern'
  canAsk: boolean
  servesApprovals: boolean
  /** Who is calling: the question is sealed for this caller, and only its retry may answer it. */
  caller: () => Promise<string>
}): Promise<ApprovalVerdict> {
  const { server, ctx, codec, name, args, era, canAsk } = options
  if (!options.servesApprovals) return refuse(unknownCaller(name))
  if (!canAsk) {
    return refuse(
      `Tool "${name}" needs a person's approval before it runs, and this MCP server is stateless, so it cannot ask for it. The call was not run.`,
    )
  }
  // A 2026-07-28 request declares what its client can do in its own envelope; a 2025 client did at initialize.
  const envelope: Record<string, unknown> | undefined = ctx.mcpReq.envelope
  const capabilities =
    era === 'modern' ? envelope?.[CLIENT_CAPABILITIES_META_KEY] : server.getClientCapabilities()
  if (!asksForms(capabilities)) {
    return refuse(
      `Tool "${name}" needs a person's approval before it runs, and this MCP client cannot ask for it (it does not support elicitation). The call was not run.`,
    )
  }
  const digest = await argsDigest(args)
  const answer = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_KEY)
  const state = ctx.mcpReq.requestState<ApprovalState>()
  refuseForeignState(state)
  // An answer counts only with the sealed question it answers, asked for this very call.
  // (A forwarded round's state names the call too, but it answers the source's questions, not this one.)
  if (
    answer.kind === 'elicit' &&
    state?.kind === undefined &&
    state?.tool === name &&
    state.args === digest &&
    typeof state.nonce === 'string'
  ) {
    if (
      answer.action === 'accept' &&
      acceptedContent(ctx.mcpReq.inputResponses, APPROVAL_KEY)?.approve === true
    ) {
      // Taken once, on any number of instances: a replayed approval is refused, and nothing runs.
      await codec.claim(state)
      return { kind: 'run' }
    }
    const how =
      answer.action === 'accept' ? 'not approved' : answer.action === 'decline' ? 'declined' : 'cancelled'
    return refuse(`The call of tool "${name}" was ${how} by the user. It was not run.`)
  }
  const question = approvalQuestion(name, args)
  const requestState = await codec.mint(
    { tool: name, args: digest, nonce: crypto.randomUUID() },
    ctx,
    await options.caller(),
  )
  return { kind: 'ask', result: inputRequired({ inputRequests: { [APPROVAL_KEY]: question }, requestState }) }
}

/**
 * Asks whether a call served as a task may run: the task waits, `input_required`, with the yes/no form
 * under the `approval` key until the client answers it through `tasks/update` (a task is found only by
 * the caller that created it, so only that caller can answer). A client that cannot show a form, or a
 * server that does not know its caller (no `authorize`), gets a refusal and the call is not run.
 *
 * @example
 * const verdict = await approveInTask({ ctx, ask, name, args, servesApprovals: true })
 */
export async function approveInTask(options: {
  ctx: ServerContext
  ask: (key: string, request: InputRequest) => Promise<unknown>
  name: string
  args: Record<string, unknown>
  servesApprovals: boolean
}): Promise<ApprovalVerdict> {
  const { ctx, ask, name, args } = options
  if (!options.servesApprovals) return refuse(unknownCaller(name))
  const envelope: Record<string, unknown> | undefined = ctx.mcpReq.envelope
  if (!asksForms(envelope?.[CLIENT_CAPABILITIES_META_KEY])) {
    return refuse(
      `Tool "${name}" needs a person's approval before it runs, and this MCP client cannot ask for it (it does not support elicitation). The call was not run.`,
    )
  }
  return approvalAnswer(name, await ask(APPROVAL_KEY, approvalQuestion(name, args)))
}

/**
 * The yes/no form an approval is asked with: the tool and its arguments (shortened), one `approve` box.
 *
 * @example
 * const question = approvalQuestion('delete_file', { path: '/tmp/a' })
 */
function approvalQuestion(name: string, args: Record<string, unknown>): InputRequest {
  return inputRequired.elicit({
    mode: 'form',
    message: `Allow the tool "${name}" to run with these arguments?\n${capText(toJsonText(args), MAX_QUESTION_ARGS_CHARS)}`,
    requestedSchema: {
      type: 'object',
      properties: { approve: { type: 'boolean', title: 'Approve', description: `Run "${name}" now.` } },
      required: ['approve'],
    },
  })
}

/**
 * What a client's answer to {@link approvalQuestion} decides: run only on an accepted form with
 * `approve: true`; anything else is a refusal saying how the user answered.
 *
 * @example
 * approvalAnswer('delete_file', { action: 'accept', content: { approve: true } }) // { kind: 'run' }
 */
function approvalAnswer(name: string, response: unknown): ApprovalVerdict {
  const action = isRecord(response) ? response.action : undefined
  const content = isRecord(response) && isRecord(response.content) ? response.content : undefined
  if (action === 'accept' && content?.approve === true) return { kind: 'run' }
  const how = action === 'accept' ? 'not approved' : action === 'decline' ? 'declined' : 'cancelled'
  return refuse(`The call of tool "${name}" was ${how} by the user. It was not run.`)
}

/**
 * Why a call that needs approval is refused by a handler without `authorize`: the question would go to a
 * caller nobody vouched for, who could answer it themselves.
 */
function unknownCaller(name: string): string {
  return `Tool "${name}" needs a person's approval before it runs, and this MCP server does not know who its caller is (it has no \`authorize\`), so it cannot ask. The call was not run.`
}

function refuse(reason: string): ApprovalVerdict {
  return { kind: 'refuse', reason }
}

/**
 * Whether a client's capabilities let it show a form: `elicitation: {}` is form mode; a client that
 * lists modes must list `form`.
 *
 * @example
 * asksForms({ elicitation: {} }) // true
 */
function asksForms(capabilities: unknown): boolean {
  const elicitation = isRecord(capabilities) ? capabilities.elicitation : undefined
  return isRecord(elicitation) && (Object.keys(elicitation).length === 0 || 'form' in elicitation)
}
