// A served call's way up the line: when a tool of the toolkit (an MCP tool whose source server asks for
// input mid-call) hands input requests up, the gateway asks its own caller. Outside a task the call ends
// with an input-required answer carrying a sealed state; the caller (a 2026-07-28 client, or on a 2025
// session the SDK on its behalf, through elicitation/create, sampling/createMessage and roots/list)
// retries with the answers, and the call runs again from them. Inside a task the task waits for them.

import {
  CLIENT_CAPABILITIES_META_KEY,
  type InputRequest,
  type InputRequiredResult,
  inputRequired,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server'
import { isRecord } from '../shared/is-record.js'
import type { ToolInputRequest, ToolInputRound } from '../tool/types.js'
import { refuseForeignState } from './caller-binding.js'
import type { AskInput } from './serve-tasks.js'
import type { ForwardedState, ServedStateCodec } from './served-state.js'

/** The most input requests one round may hand up. */
const MAX_INPUT_REQUESTS = 16
/** The most rounds of input one served call may ask. */
export const MAX_INPUT_ROUNDS = 8
/** The most characters (as JSON) the answers to one round may hold: they are passed on, or held. */
const MAX_ANSWERS_CHARS = 1024 * 1024

// Each kind of input request, and the client capability that answers it.
const CAPABILITY_OF: Record<string, string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
}

/**
 * How a call that handed input up goes on: `ask` the caller (the answer to send), `refuse` it with an
 * error result, or refuse it as `missing` capabilities the caller did not declare (a 2026-07-28 caller).
 */
export type ForwardVerdict =
  | { kind: 'ask'; result: InputRequiredResult }
  | { kind: 'refuse'; reason: string }
  | { kind: 'missing'; error: MissingRequiredClientCapabilityError }

/**
 * The forwarded round a retry answers, when its `requestState` is one (already verified by the server's
 * state hook: sealed by this handler for this caller, not expired). It must name this very call (tool and
 * arguments) and answer only keys that round asked, in at most 1 MiB of JSON, else it is refused with
 * invalid params, whose message says nothing of the state; then it is claimed, once on any number of
 * instances (a replay is refused with invalid params saying it was used already).
 *
 * @example
 * const resumed = await resumedRound({ ctx, name, digest: () => argsDigest(args), codec })
 */
export async function resumedRound(options: {
  ctx: ServerContext
  name: string
  digest: () => Promise<string>
  codec: ServedStateCodec
}): Promise<ForwardedState | undefined> {
  const { ctx, name, digest, codec } = options
  const state: unknown = ctx.mcpReq.requestState()
  refuseForeignState(state)
  if (!isRecord(state) || state.kind !== 'forward') return undefined
  const forwarded = state as unknown as ForwardedState
  const asked = new Set(forwarded.keys)
  const answered = Object.keys(ctx.mcpReq.inputResponses ?? {})
  if (
    forwarded.tool !== name ||
    forwarded.args !== (await digest()) ||
    answered.some((key) => !asked.has(key)) ||
    JSON.stringify(ctx.mcpReq.inputResponses ?? {}).length > MAX_ANSWERS_CHARS
  ) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState')
  }
  await codec.claim(forwarded)
  return forwarded
}

/**
 * The input round of one served call outside a task: `ask` records the requests and ends the call (the
 * tool's run stops there); `verdict` then gives the input-required answer to send, with a state sealed
 * for this caller and call, or a refusal when the round passes a bound.
 *
 * @example
 * const forwarding = forwardingRound({ ctx, server, era, name, digest, codec, caller, resumed })
 * const result = await toolkit.execute(name, args, { ...context, inputRound: forwarding.round })
 * const verdict = await forwarding.verdict()
 */
export function forwardingRound(options: {
  ctx: ServerContext
  server: Server
  era: 'legacy' | 'modern'
  name: string
  digest: () => Promise<string>
  codec: ServedStateCodec
  caller: () => Promise<string>
  resumed: ForwardedState | undefined
}): { round: ToolInputRound; verdict: () => Promise<ForwardVerdict | undefined> } {
  const { ctx, resumed } = options
  const rounds = resumed?.round ?? 0
  let pending: { requests: Record<string, ToolInputRequest>; state: string | undefined } | undefined
  let missing: Record<string, unknown> | undefined
  const round: ToolInputRound = {
    capabilities: callerCapabilities(options),
    ...(resumed !== undefined && {
      resumed: {
        responses: ctx.mcpReq.inputResponses ?? {},
        ...(resumed.source !== undefined && { state: resumed.source }),
      },
    }),
    ask: (requests, state) => {
      const problem = roundProblem(requests, rounds + 1)
      if (problem !== undefined) return Promise.reject(new Error(problem))
      pending = { requests, state }
      return Promise.reject(new Error('The call waits for its caller to answer a round of input.'))
    },
    // A 2025 caller gets the error result the tool answers (the 2025 way of saying it).
    missingCapabilities: (required) => {
      if (options.era === 'modern') missing = required
    },
  }
  const verdict = async (): Promise<ForwardVerdict | undefined> => {
    if (missing !== undefined) {
      const error = new MissingRequiredClientCapabilityError(
        { requiredCapabilities: missing },
        `${served(options.name)} needs client capabilities this request did not declare.`,
      )
      return { kind: 'missing', error }
    }
    if (pending === undefined) return undefined
    const requestState = await options.codec.mint(
      {
        tool: options.name,
        args: await options.digest(),
        keys: Object.keys(pending.requests),
        round: rounds + 1,
        ...(pending.state !== undefined && { source: pending.state }),
      },
      await options.caller(),
    )
    if (requestState === undefined) {
      return {
        kind: 'refuse',
        reason: `${served(options.name)} asked for input with a request state too large to carry. It was stopped.`,
      }
    }
    const inputRequests = pending.requests as unknown as Record<string, InputRequest>
    return { kind: 'ask', result: inputRequired({ inputRequests, requestState }) }
  }
  return { round, verdict }
}

/**
 * The input round of a call served as a task: each request is asked through the task (it is
 * `input_required` until the caller answers them with `tasks/update`), and the answers handed back.
 * A request the caller declared no capability for, or a round past a bound, fails the round. A task
 * started by the retry of a round asked before it (`resumed`) hands the tool that round's answers.
 *
 * @example
 * const round = taskRound({ ctx, ask })
 */
export function taskRound(options: {
  ctx: ServerContext
  ask: AskInput
  resumed?: ForwardedState | undefined
}): ToolInputRound {
  const { ctx, ask, resumed } = options
  const capabilities = callerCapabilities({ ctx, era: 'modern' })
  let rounds = resumed?.round ?? 0
  const asked = async (requests: Record<string, ToolInputRequest>) => {
    rounds++
    const problem = roundProblem(requests, rounds) ?? capabilityProblem(requests, capabilities)
    if (problem !== undefined) throw new Error(problem)
    const answers = await Promise.all(
      Object.entries(requests).map(
        async ([key, request]) => [key, await ask(key, request as unknown as InputRequest)] as const,
      ),
    )
    return Object.fromEntries(answers)
  }
  return {
    capabilities,
    ...(resumed !== undefined && {
      resumed: {
        responses: ctx.mcpReq.inputResponses ?? {},
        ...(resumed.source !== undefined && { state: resumed.source }),
      },
    }),
    // The task waits for the answers either way: a 2025 source's questions mid-call are asked alike.
    ask: asked,
    hold: asked,
    // The task fails with the error result the tool answers.
    missingCapabilities: () => {},
  }
}

/** What a round is asked for, in a message: a tool by its name, a prompt or read by its method. */
function served(name: string): string {
  return name.includes('/') ? `The ${name} request` : `Tool "${name}"`
}

/** What the caller declared it can answer: in its 2026-07-28 request's envelope, else at initialize. */
function callerCapabilities(options: {
  ctx: ServerContext
  server?: Server
  era: 'legacy' | 'modern'
}): Record<string, unknown> {
  const envelope: Record<string, unknown> | undefined = options.ctx.mcpReq.envelope
  const declared =
    options.era === 'modern'
      ? envelope?.[CLIENT_CAPABILITIES_META_KEY]
      : options.server?.getClientCapabilities()
  if (!isRecord(declared)) return {}
  const capabilities: Record<string, unknown> = {}
  for (const key of Object.values(CAPABILITY_OF))
    if (isRecord(declared[key])) capabilities[key] = declared[key]
  return capabilities
}

/**
 * Why a round may not be handed up: too many requests or rounds, or a request of an unknown kind.
 *
 * @example
 * const problem = roundProblem(requests, 3) // undefined when the round may go up
 */
export function roundProblem(requests: Record<string, ToolInputRequest>, round: number): string | undefined {
  const entries = Object.entries(requests)
  if (round > MAX_INPUT_ROUNDS) {
    return `The tool asked for input more than ${MAX_INPUT_ROUNDS} times in one call. It was stopped.`
  }
  if (entries.length === 0) return 'The tool asked for input without a request.'
  if (entries.length > MAX_INPUT_REQUESTS) {
    return `The tool asked ${entries.length} questions at once; at most ${MAX_INPUT_REQUESTS} are passed on.`
  }
  for (const [key, request] of entries) {
    if (!isRecord(request) || typeof request.method !== 'string' || !(request.method in CAPABILITY_OF)) {
      return `The tool's input request "${key.slice(0, 100)}" is not an elicitation, sampling or roots request.`
    }
  }
  return undefined
}

/** Which request the caller cannot answer, for want of the capability it needs. */
function capabilityProblem(
  requests: Record<string, ToolInputRequest>,
  capabilities: Record<string, unknown>,
): string | undefined {
  for (const [key, request] of Object.entries(requests)) {
    const needed = CAPABILITY_OF[request.method]
    if (needed !== undefined && capabilities[needed] === undefined) {
      return `The caller cannot answer the input request "${key.slice(0, 100)}": it did not declare the ${needed} capability.`
    }
  }
  return undefined
}
