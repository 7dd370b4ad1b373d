// The one mechanism that makes an answered approval run at most once: before any held call runs, the run
// is claimed in a store every instance shares, in one atomic step of that store's database (the store's
// side of it, `ClaimStore`, is in shared/claim-store.ts, where the stores implement it).
import { ApprovalError, ConfigError } from '../errors.js'
import type { ClaimStore } from '../shared/claim-store.js'
import { BoundedClaims } from './process-claims.js'

/**
 * Reads a `claims` option: a `ClaimStore`, or nothing.
 *
 * @example
 * const claims = readClaimStore(options.claims, 'createClient')
 */
export function readClaimStore(claims: unknown, where: string): ClaimStore | undefined {
  if (claims === undefined) return undefined
  if (typeof (claims as Partial<ClaimStore> | null)?.claim !== 'function') {
    throw new ConfigError(
      `${where}: \`claims\` must be a store with claim(key, ttlSeconds), like createRedisStore({ url }) from toolnexus/redis or createPostgresStore({ connectionString }) from toolnexus/postgres.`,
      { field: 'claims' },
    )
  }
  return claims as ClaimStore
}

/**
 * Checks a store's answer to a claim: anything but `true` is a claim lost, and nothing runs. The
 * process's guard refusing a run it does not hold, for want of room, says the process is busy instead
 * (a 'guard-full' ApprovalError): the run was not answered before.
 *
 * @example
 * await claimOnce(claims, key, 960) // throws a 'replayed-approval' ApprovalError when claimed before
 */
export async function claimOnce(claims: ClaimStore, key: string, ttlSeconds: number): Promise<void> {
  if ((await claims.claim(key, ttlSeconds)) === true) return
  if (claims instanceof BoundedClaims && !claims.holds(key)) {
    throw new ApprovalError(
      'This process is busy: it holds as many runs waiting for approval as it keeps without a `claims` store, so the answer could not be taken. Nothing ran; try again later, or pass `claims` (createRedisStore, createPostgresStore).',
      { code: 'guard-full' },
    )
  }
  throw new ApprovalError('This run was answered already (here or on another instance); nothing ran.', {
    code: 'replayed-approval',
  })
}
