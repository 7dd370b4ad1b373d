// The one mechanism that makes an answered approval run at most once: before any held call runs, the run
// is claimed in a store every instance shares, in one atomic step of that store's database (the store's
// side of it, `ClaimStore`, is in shared/claim-store.ts, where the stores implement it).
import { ApprovalError, ConfigError } from '../errors.js'
import type { ClaimStore } from '../shared/claim-store.js'

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
 * Checks a store's answer to a claim: anything but `true` is a claim lost, and nothing runs.
 *
 * @example
 * await claimOnce(claims, key, 960) // throws a 'replayed-approval' ApprovalError when claimed before
 */
export async function claimOnce(claims: ClaimStore, key: string, ttlSeconds: number): Promise<void> {
  if ((await claims.claim(key, ttlSeconds)) === true) return
  throw new ApprovalError('This run was answered already (here or on another instance); nothing ran.', {
    code: 'replayed-approval',
  })
}
