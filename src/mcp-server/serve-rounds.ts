// How a served request (a tool call, a prompt, a read) whose sources ask for input runs: the questions a
// 2026-07-28 source puts in its answer end the request with a round (forward-input.ts) and it runs again
// from the answers; those a 2025-era source asks mid-call are held: on a 2025 session they are asked of
// the caller at once, over it; to a 2026-07-28 caller the request answers input-required while the call
// waits in this process (held-calls.ts), and the retry that brings the answers takes it up again.

import {
  type InputRequest,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server'
import type { ToolInputRequest, ToolInputRound } from '../tool/types.js'
import { type ForwardVerdict, forwardingRound, MAX_INPUT_ROUNDS, roundProblem } from './forward-input.js'
import { type HeldCalls, type HeldOutcome, HeldRun } from './held-calls.js'
import type { ForwardedState, ServedStateCodec } from './served-state.js'

/** What a server instance needs to forward the rounds of its requests. */
export interface RoundServing {
  server: Server
  era: 'legacy' | 'modern'
  /** False where nothing carries an answer back (stateless 2025 serving). */
  canAsk: boolean
  codec: ServedStateCodec
  caller: () => Promise<string>
  /** Where calls wait between requests; absent, a 2025 source's question mid-call is not held. */
  held?: HeldCalls | undefined
}

/** What a served request came to: its value, its failure, or a round for the caller (a verdict). */
export type RoundOutcome<Value> = Exclude<HeldOutcome<Value>, { kind: 'asked' }> | ForwardVerdict

// The verdict of the rounds a 2026-07-28 source asked, for each call held across requests.
const verdicts = new WeakMap<HeldRun<unknown>, () => Promise<ForwardVerdict | undefined>>()

/**
 * Runs one served request with a round that hands its sources' questions to its caller (`canAsk`), or
 * without one. A retry of a held call (its verified state names one) answers the questions it waits
 * on and takes it up; a held call that is not here (another instance's, or expired) is refused with
 * invalid params. A round past a bound, or more calls held than the bound, is refused.
 *
 * @example
 * const outcome = await serveRounds({ serving, ctx, name, digest, resumed, run: (inputRound, signal) => execute() })
 */
export async function serveRounds<Value>(options: {
  serving: RoundServing
  ctx: ServerContext
  name: string
  digest: () => Promise<string>
  resumed: ForwardedState | undefined
  run: (round: ToolInputRound | undefined, signal: AbortSignal) => Promise<Value>
}): Promise<RoundOutcome<Value>> {
  const { serving, ctx, name, digest, resumed } = options
  if (resumed?.held !== undefined) {
    const held = serving.held?.take(resumed.held) as HeldRun<Value> | undefined
    if (held === undefined) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState')
    }
    held.answer(ctx.mcpReq.inputResponses ?? {})
    return drive(options, held)
  }
  const run = new HeldRun<Value>(resumed?.round ?? 0)
  if (!serving.canAsk) {
    run.start(() => options.run(undefined, run.signal))
    return drive(options, run)
  }
  const { server, era, codec, caller } = serving
  const forwarding = forwardingRound({ ctx, server, era, name, digest, codec, caller, resumed })
  verdicts.set(run, forwarding.verdict)
  const holding = era === 'modern' && serving.held !== undefined
  const round: ToolInputRound = {
    ...forwarding.round,
    ...(era === 'legacy' && { hold: (requests) => askOnSession(ctx, requests) }),
    ...(holding && {
      hold: (requests) => {
        const problem = roundProblem(requests, run.rounds + 1)
        return problem === undefined ? run.hold(requests) : Promise.reject(new Error(problem))
      },
    }),
  }
  run.start(() => options.run(round, run.signal))
  return drive(options, run)
}

/** Waits for the call to end or ask; a call that asks is held, and the caller gets its round. */
async function drive<Value>(
  options: { serving: RoundServing; ctx: ServerContext; name: string; digest: () => Promise<string> },
  run: HeldRun<Value>,
): Promise<RoundOutcome<Value>> {
  const { serving, name } = options
  run.follow(options.ctx.mcpReq.signal)
  const outcome = await run.next()
  if (outcome.kind !== 'asked') {
    run.follow(undefined)
    return (await verdicts.get(run as HeldRun<unknown>)?.()) ?? outcome
  }
  run.rounds++
  const refuse = (reason: string): RoundOutcome<Value> => {
    run.cancel(new Error(reason))
    return { kind: 'refuse', reason }
  }
  if (run.rounds > MAX_INPUT_ROUNDS) {
    return refuse(
      `"${name}" asked for input more than ${MAX_INPUT_ROUNDS} times in one call. It was stopped.`,
    )
  }
  const id = serving.held?.park(run as HeldRun<unknown>)
  if (id === undefined) return refuse('Too many calls wait for their callers to answer: try again later.')
  let requestState: string | undefined
  try {
    requestState = await serving.codec.mint(
      {
        tool: name,
        args: await options.digest(),
        keys: Object.keys(outcome.requests),
        round: run.rounds,
        held: id,
      },
      await serving.caller(),
    )
  } catch (error) {
    // No state for the round (a full guard): the held call goes, and the caller hears why.
    serving.held?.take(id)
    run.cancel(error instanceof Error ? error : new Error(String(error)))
    throw error
  }
  if (requestState === undefined) {
    serving.held?.take(id)
    return refuse(`"${name}" asked for input too large to carry. It was stopped.`)
  }
  const inputRequests = outcome.requests as unknown as Record<string, InputRequest>
  return { kind: 'ask', result: inputRequired({ inputRequests, requestState }) }
}

/** Asks a 2025 session's client each request over the session, in turn; the answers by key. */
async function askOnSession(
  ctx: ServerContext,
  requests: Record<string, ToolInputRequest>,
): Promise<Record<string, unknown>> {
  const problem = roundProblem(requests, 1)
  if (problem !== undefined) throw new Error(problem)
  const answers: Record<string, unknown> = {}
  for (const [key, request] of Object.entries(requests)) {
    answers[key] = await ctx.mcpReq.send({ method: request.method, params: request.params } as never)
  }
  return answers
}
