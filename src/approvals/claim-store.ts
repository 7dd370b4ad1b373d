// The one mechanism that makes an answered approval run at most once: before any held call runs, the run
// is claimed in a store every instance shares, in one atomic step of that store's database.
import { ApprovalError, ConfigError } from '../errors.js'
import type { Awaitable } from '../loop/types.js'

/**
 * A place that says "first" once per key: `claim(key, ttlSeconds)` resolves `true` for the first caller
 * only, and `false` for every later one until the key expires, `ttlSeconds` after the claim. The check
 * and the write are one atomic step in the store's database (a Redis `SET NX EX`, a Postgres
 * `INSERT … ON CONFLICT`), never a lock held in one process, so two instances claiming at once get one
 * `true` between them. Every built-in store is one: `InMemoryConversationStore` (one process),
 * `createRedisStore` and `createPostgresStore` (every instance that shares the database).
 *
 * Passed as `claims` to `createClient`, `createChatHandler` and `withToolkit`, it claims each answered
 * run before anything runs, so the run is answered once across instances, restarts and cold starts.
 *
 * @example
 * const claims: ClaimStore = createRedisStore({ url: process.env.REDIS_URL })
 * await claims.claim('approval:run-1', 960) // true
 * await claims.claim('approval:run-1', 960) // false: claimed already
 */
export interface ClaimStore {
  /** `true` for the first claim of `key` (then held for `ttlSeconds`), `false` while it is held. */
  claim(key: string, ttlSeconds: number): Awaitable<boolean>
}

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

/**
 * Checks a claim's arguments: a key text and a whole number of seconds.
 *
 * @example
 * checkClaim('approval:run-1', 960)
 */
export function checkClaim(key: unknown, ttlSeconds: unknown): void {
  if (typeof key !== 'string' || key === '') {
    throw new ConfigError('claim(key, ttlSeconds): `key` must be a non-empty string.')
  }
  if (!(Number.isInteger(ttlSeconds) && (ttlSeconds as number) >= 1)) {
    throw new ConfigError(
      `claim(key, ttlSeconds): \`ttlSeconds\` must be a whole number of at least 1; got ${String(ttlSeconds)}.`,
    )
  }
}
