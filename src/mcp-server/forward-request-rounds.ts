// A served `prompts/get` or `resources/read` whose source server asks for input: the gateway asks its own
// caller, as it does for `tools/call` (forward-input.ts). The request answers input-required with a state
// sealed for this caller and request; the caller retries with the answers, and the request is made again
// from them.

import {
  type InputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server'
import { RoundHandedUp } from '../mcp/request-rounds.js'
import type { ToolInputRound } from '../tool/types.js'
import { forwardingRound, resumedRound } from './forward-input.js'
import { argsDigest, type ServedStateCodec } from './served-state.js'

/** What a server instance needs to forward the rounds of its non-tool requests. */
export interface RoundServing {
  server: Server
  era: 'legacy' | 'modern'
  /** False where nothing carries an answer back (stateless 2025 serving). */
  canAsk: boolean
  codec: ServedStateCodec
  caller: () => Promise<string>
}

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
  const { codec, caller, server, era } = serving
  const name = request.method
  const resumed = await resumedRound({ ctx, name, digest, codec })
  if (!serving.canAsk) return run(undefined)
  const forwarding = forwardingRound({ ctx, server, era, name, digest, codec, caller, resumed })
  let value: Value
  try {
    value = await run(forwarding.round)
  } catch (error) {
    const verdict = await forwarding.verdict()
    if (verdict === undefined) {
      // A round past a bound: the request fails, saying why.
      if (error instanceof RoundHandedUp) {
        const reason = error.cause instanceof Error ? error.cause.message : String(error.cause)
        throw new ProtocolError(ProtocolErrorCode.InternalError, reason)
      }
      throw error
    }
    if (verdict.kind === 'ask') return verdict.result
    if (verdict.kind === 'missing') throw verdict.error
    throw new ProtocolError(ProtocolErrorCode.InternalError, verdict.reason)
  }
  return value
}
