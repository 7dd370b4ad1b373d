// The claims of a process that was given no `claims` store: one guard shared by every client, chat
// handler and provider-form wrapper in the process, so that a second client refuses a replay too.
import { ApprovalError } from '../errors.js'
import type { ClaimStore } from '../shared/claim-store.js'

/** Runs a process may hold waiting or answered at once without a `claims` store. */
const MAX_PROCESS_CLAIMS = 100_000

interface Entry {
  /** `Date.now()` past which the run has expired, and its entry may go. */
  expiresAt: number
  claimed: boolean
}

/**
 * Claims kept in memory, bounded and failing closed: an entry is never forgotten before its run expires
 * (an evicting cache would let an old answer through again), so when `limit` entries are live a new
 * suspension is refused instead. Each suspension reserves its entry (`reserve`), so that a run handed out
 * always has room for its claim.
 *
 * @example
 * const claims = new BoundedClaims(3)
 * claims.reserve('run-1', 900)
 * claims.claim('run-1', 900) // true
 * claims.claim('run-1', 900) // false
 */
export class BoundedClaims implements ClaimStore {
  readonly #entries = new Map<string, Entry>()
  readonly #limit: number
  /** No entry expires before this: until then a sweep would free nothing. */
  #earliest = Number.POSITIVE_INFINITY

  constructor(limit = MAX_PROCESS_CLAIMS) {
    this.#limit = limit
  }

  /** Holds room for the claim of a run that is being handed out; throws when the guard is full. */
  reserve(key: string, ttlSeconds: number): void {
    if (this.#entries.has(key)) return
    if (!this.#room()) {
      throw new ApprovalError(
        `This process holds ${this.#limit} runs waiting for approval, as many as it keeps without a \`claims\` store; the run was not suspended. Pass \`claims\` (createRedisStore, createPostgresStore), or answer or let some expire.`,
        { code: 'guard-full' },
      )
    }
    this.#add(key, ttlSeconds, false)
  }

  claim(key: string, ttlSeconds: number): boolean {
    const entry = this.#entries.get(key)
    if (entry !== undefined && entry.expiresAt > Date.now()) {
      if (entry.claimed) return false
      entry.claimed = true
      return true
    }
    if (entry !== undefined) this.#entries.delete(key)
    // Never seen here (a run of another guard's making): claimed if there is room, else refused.
    if (!this.#room()) return false
    this.#add(key, ttlSeconds, true)
    return true
  }

  /** Whether `key` is held and live: a claim refused for a key not held was refused for want of room. */
  holds(key: string): boolean {
    const entry = this.#entries.get(key)
    return entry !== undefined && entry.expiresAt > Date.now()
  }

  /** How many entries are held (live or not yet swept). */
  get size(): number {
    return this.#entries.size
  }

  #add(key: string, ttlSeconds: number, claimed: boolean): void {
    const expiresAt = Date.now() + ttlSeconds * 1000
    this.#entries.set(key, { expiresAt, claimed })
    if (expiresAt < this.#earliest) this.#earliest = expiresAt
  }

  /** Whether one more entry fits, after forgetting the expired ones when that can free any. */
  #room(): boolean {
    if (this.#entries.size < this.#limit) return true
    const now = Date.now()
    if (now < this.#earliest) return false
    let earliest = Number.POSITIVE_INFINITY
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt <= now) this.#entries.delete(key)
      else if (entry.expiresAt < earliest) earliest = entry.expiresAt
    }
    this.#earliest = earliest
    return this.#entries.size < this.#limit
  }
}

/** The process's guard. */
export const processClaims = new BoundedClaims()
