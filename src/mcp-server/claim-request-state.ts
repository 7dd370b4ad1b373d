// A request state a served toolkit hands out (an approval question, a forwarded round of input) runs a
// call when it comes back, so it is accepted once, on any number of instances: before the call runs its
// state is claimed in `claims`, one atomic step of a store every instance shares (else the process's own
// guard, in memory). A replay, here or on another instance, loses the claim and is refused the same way.
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'
import { readClaimStore } from '../approvals/claim-store.js'
import { BoundedClaims, processClaims } from '../approvals/process-claims.js'
import { ConfigError } from '../errors.js'
import { capText } from '../shared/cap-text.js'
import type { ClaimStore } from '../shared/claim-store.js'
import type { Logger } from '../shared/logger.js'
import { errorMessage } from '../tool/tool-result.js'

/** How long a sealed request state may be answered, in seconds: ten minutes. */
export const REQUEST_STATE_TTL_SECONDS = 600

// Kept past a state's expiry: a claim outlives the state even on an instance whose clock runs late.
const CLAIM_SLACK_SECONDS = 60
// What a state's claim key starts with, beside the approvals' `approval:` keys in the same store.
const CLAIM_KEY_PREFIX = 'mcp-request-state:'

/**
 * Reads the `claims` option of a served toolkit: the store given, else the process's guard. A
 * `requestStateKey` without `claims` is refused: every instance (and every restart) holding the key
 * would accept a state again and run its call twice, with nothing shared to say it was used.
 *
 * @example
 * const claims = readStateClaims({ requestStateKey, claims: createRedisStore({ url }) }, 'createMcpHandler')
 */
export function readStateClaims(
  options: { claims?: unknown; requestStateKey?: unknown },
  where: string,
): ClaimStore {
  const claims = readClaimStore(options.claims, where)
  if (claims !== undefined) return claims
  if (options.requestStateKey !== undefined) {
    throw new ConfigError(
      `${where}: \`requestStateKey\` is set without \`claims\`: every instance (and every restart) holding the key would accept an answered request state again, and run its call twice. Pass claims, a store they share: { requestStateKey, claims: createRedisStore({ url }) } (or createPostgresStore). One instance needs neither.`,
      { field: 'claims' },
    )
  }
  return processClaims
}

// What a request state refused for want of room in the process's guard is told: the server is busy.
const GUARD_FULL =
  'This server is busy: it holds as many pending request states as it keeps without a shared `claims` store. The call was not run; try again later.'

/**
 * Reserves room in the process's guard for the claim of a request state about to be handed out, so
 * that a state handed out can always be claimed; a full guard refuses the state (an internal error
 * saying the server is busy) before it leaves, and nothing runs. A shared store needs no reservation.
 *
 * @example
 * reserveRequestState(claims, state.nonce) // then hand the state out
 */
export function reserveRequestState(claims: ClaimStore, nonce: string): void {
  if (!(claims instanceof BoundedClaims)) return
  try {
    claims.reserve(CLAIM_KEY_PREFIX + nonce, REQUEST_STATE_TTL_SECONDS + CLAIM_SLACK_SECONDS)
  } catch {
    throw new ProtocolError(ProtocolErrorCode.InternalError, GUARD_FULL, { reason: 'busy' })
  }
}

/**
 * Claims the request state named by `nonce` (its one-of-a-kind id) before the call it carries runs.
 * Resolves when this request is the first to claim it; rejects with invalid params when it was claimed
 * before (a replay, on this instance or another), and with an internal error when the store fails (its
 * error goes to `logger`, never to the client) or the process's own guard is full (saying the server is
 * busy): either way nothing runs.
 *
 * @example
 * await claimRequestState(claims, state.nonce, logger) // then run the call
 */
export async function claimRequestState(claims: ClaimStore, nonce: string, logger?: Logger): Promise<void> {
  const key = CLAIM_KEY_PREFIX + nonce
  let first: boolean
  try {
    first = (await claims.claim(key, REQUEST_STATE_TTL_SECONDS + CLAIM_SLACK_SECONDS)) === true
  } catch (error) {
    logger?.warn(
      `An MCP request state could not be claimed: the claims store failed (${capText(errorMessage(error), 500)}). The call was not run.`,
    )
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      'The requestState could not be claimed: the claims store failed. The call was not run.',
    )
  }
  if (!first && claims instanceof BoundedClaims && !claims.holds(key)) {
    throw new ProtocolError(ProtocolErrorCode.InternalError, GUARD_FULL, { reason: 'busy' })
  }
  if (!first) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'This requestState was used already (on this instance or another). The call was not run again.',
    )
  }
}
