// What a claim store is, for the stores that implement it and the approvals that claim through it.
import { ConfigError } from '../errors.js'
import type { Awaitable } from './awaitable.js'

/**
 * A place that says "first" once per key: `claim(key, ttlSeconds)` resolves `true` for the first caller
 * only, and `false` for every later one until the key expires, `ttlSeconds` after the claim. The check
 * and the write are one atomic step in the store's database (a Redis `SET NX EX`, a Postgres
 * `INSERT … ON CONFLICT`), never a lock held in one process, so two instances claiming at once get one
 * `true` between them. Every built-in store is one: `InMemoryConversationStore` (one process),
 * `createRedisStore` and `createPostgresStore` (every instance that shares the database).
 *
 * Passed as `claims` to `createClient`, `createChatHandler` and `withToolkit`, it claims each answered
 * run before anything runs, so the run is answered once across instances, restarts and cold starts;
 * passed to `createMcpHandler` and `serveStdio`, it claims each request state the server handed out.
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
