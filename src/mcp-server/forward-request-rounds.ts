// A served `prompts/get` or `resources/read` whose source server asks for input: the gateway asks its own
// caller, as it does for `tools/call` (forward-input.ts). The request answers input-required with a state
// sealed for this caller and request; the caller retries with the answers, and the request is made again
// from them.

import {
  type InputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server'
import { RoundHandedUp } from '../mcp/request-rounds.js'
import type { ToolInputRound } from '../tool/types.js'
import { resumedRound } from './forward-input.js'
import { type RoundServing, serveRounds } from './serve-rounds.js'
import { argsDigest } from './served-state.js'

/**
 * Runs one request whose source may ask for input, with a round that hands the questions to this
 * request's caller. `method` and `args` name the request in the sealed state (a tool's name never holds
 * a `/`, so a tool call's state never passes for one of these, nor one of these for another); a retry
 * whose state names another request, answers a key that was not asked, or was used before is refused
 * with invalid params.
 *
 * @example
 * return withInputRounds(serving, ctx, { method: 'prompts/get', args: { name } }, (inputRound) =>
 *   toolkit.getPrompt(server, name, {}, { inputRound }),
 * )
 */
export async function withInputRounds<Value>(
  serving: RoundServing | undefined,
  ctx: ServerContext,
  request: { method: 'prompts/get' | 'resources/read'; args: Record<string, unknown> },
  run: (round: ToolInputRound | undefined) => Promise<Value>,
): Promise<Value | InputRequiredResult> {
  if (serving === undefined) return run(undefined)
  let digested: Promise<string> | undefined
  const digest = (): Promise<string> => {
    digested ??= argsDigest(request.args)
    return digested
  }
  const name = request.method
  const resumed = await resumedRound({ ctx, name, digest, codec: serving.codec })
  const outcome = await serveRounds({ serving, ctx, name, digest, resumed, run })
  if (outcome.kind === 'done') return outcome.value
  if (outcome.kind === 'ask') return outcome.result
  if (outcome.kind === 'missing') throw outcome.error
  if (outcome.kind === 'refuse') throw new ProtocolError(ProtocolErrorCode.InternalError, outcome.reason)
  // A round past a bound: the request fails, saying why.
  const { error } = outcome
  if (error instanceof RoundHandedUp) {
    const reason = error.cause instanceof Error ? error.cause.message : String(error.cause)
    throw new ProtocolError(ProtocolErrorCode.InternalError, reason)
  }
  throw error
}
