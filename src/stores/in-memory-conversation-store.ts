import { type ClaimStore, checkClaim } from '../shared/claim-store.js'
import { checkVersion } from './check-version.js'
import type { ConversationRecord, ConversationStore, StoredConversation } from './conversation-store.js'
import { readTtlSeconds } from './read-ttl-seconds.js'
import { decodeRecord, encodeRecord } from './record-json.js'

/** A stored copy, as JSON text: what a caller holds can change without changing the store. */
interface Entry {
  record: string
  version: number
  /** `Date.now()` past which the entry is gone; `undefined`: it never expires. */
  expiresAt: number | undefined
}

/** What `InMemoryConversationStore` takes. */
export interface InMemoryConversationStoreOptions {
  /** Seconds a conversation is kept after its last save. @default kept as long as the process lives */
  ttlSeconds?: number
}

/**
 * The default `ConversationStore`: conversations in a `Map`, for as long as the process lives (or
 * `ttlSeconds` after their last save). Keeps each record as JSON text, exactly as the database stores do
 * (bytes and URLs included), so a caller changing what it passed or got back does not change what is
 * stored, and what works here works on Redis and Postgres. One process only: instances behind a load
 * balancer need a shared store (`toolnexus/redis`, `toolnexus/postgres`).
 *
 * @example
 * const store = new InMemoryConversationStore<ModelMessage>()
 * const client = createClient({ model, store })
 * await client.ask('My name is Ada.', { id: 'user-1' })
 * await store.load('user-1') // { messages: [...the whole conversation], version: 1 }
 */
export class InMemoryConversationStore<Message> implements ConversationStore<Message>, ClaimStore {
  readonly #conversations = new Map<string, Entry>()
  /** Claimed keys and the `Date.now()` at which each claim ends. */
  readonly #claims = new Map<string, number>()
  #claimsSinceSweep = 0
  readonly #ttlMs: number | undefined

  constructor(options: InMemoryConversationStoreOptions = {}) {
    this.#ttlMs = readTtlSeconds(options.ttlSeconds, 'InMemoryConversationStore')
  }

  load(id: string): StoredConversation<Message> | undefined {
    const entry = this.#live(id)
    if (entry === undefined) return undefined
    const record = decodeRecord<Message>(entry.record, (error) => error as Error)
    return { ...record, version: entry.version }
  }

  save(id: string, record: ConversationRecord<Message>, expectedVersion: number): boolean {
    checkVersion(expectedVersion)
    const current = this.#live(id)
    if ((current?.version ?? 0) !== expectedVersion) return false
    this.#conversations.set(id, {
      record: encodeRecord(record),
      version: expectedVersion + 1,
      expiresAt: this.#ttlMs === undefined ? undefined : Date.now() + this.#ttlMs,
    })
    return true
  }

  delete(id: string): void {
    this.#conversations.delete(id)
  }

  /**
   * `true` for the first claim of `key`, then `false` until `ttlSeconds` have passed. A claim is never
   * forgotten before it ends.
   *
   * @example
   * store.claim('approval:run-1', 960) // true, then false
   */
  claim(key: string, ttlSeconds: number): boolean {
    checkClaim(key, ttlSeconds)
    const now = Date.now()
    const until = this.#claims.get(key)
    if (until !== undefined && until > now) return false
    this.#claims.set(key, now + ttlSeconds * 1000)
    // Ended claims are swept now and then, so the map holds about the live ones.
    if (++this.#claimsSinceSweep >= 1024) {
      this.#claimsSinceSweep = 0
      for (const [claimed, end] of this.#claims) if (end <= now) this.#claims.delete(claimed)
    }
    return true
  }

  #live(id: string): Entry | undefined {
    const entry = this.#conversations.get(id)
    if (entry?.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      this.#conversations.delete(id)
      return undefined
    }
    return entry
  }
}
