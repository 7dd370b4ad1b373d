// `toolnexus/redis`: conversations in Redis, shared by every instance. Loaded only through its subpath,
// so the root entry never touches `redis` (an optional peer dependency).

import { ConfigError, StoreError } from '../errors.js'
import { checkClaim } from '../shared/claim-store.js'
import { checkVersion } from './check-version.js'
import type { ConversationRecord, StoredConversation } from './conversation-store.js'
import { readTtlSeconds } from './read-ttl-seconds.js'
import { decodeRecord, encodeRecord } from './record-json.js'
import { connectionSecrets, storeFailure } from './store-failure.js'

/**
 * The part of a node-redis client (`createClient()` from `redis`, v5 or later) the store uses. A client
 * that is not open yet is connected on first use.
 *
 * @example
 * import { createClient } from 'redis'
 * const client: RedisClientLike = await createClient({ url: process.env.REDIS_URL }).connect()
 */
export interface RedisClientLike {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
  hmGet(key: string, fields: string[]): Promise<unknown>
  del(key: string): Promise<unknown>
  readonly isOpen?: boolean
  connect?(): Promise<unknown>
}

/** Where the Redis store connects: a URL (the store makes and owns the client), or your client. */
export type RedisConnection =
  | {
      /** `redis://[:password@]host:port[/db]` or `rediss://…` for TLS. */
      url: string
      client?: undefined
    }
  | {
      /** A node-redis client you made (and close yourself). */
      client: RedisClientLike
      url?: undefined
    }

/**
 * What `createRedisStore` takes.
 *
 * @example
 * const options: RedisStoreOptions = { url: 'redis://127.0.0.1:6379', ttlSeconds: 86_400, keyPrefix: 'chat:' }
 */
export type RedisStoreOptions = RedisConnection & {
  /** Seconds a conversation is kept after its last save (Redis `EXPIRE`). @default kept until deleted */
  ttlSeconds?: number
  /** Put before every conversation id to make its key. @default 'toolnexus:conversation:' */
  keyPrefix?: string
  /** Put before every claimed key (`claim`) to make its Redis key. @default 'toolnexus:claim:' */
  claimKeyPrefix?: string
  /**
   * Milliseconds one Redis command may take, with the client the store makes from `url`; then it fails
   * with a `StoreError`. @default 10_000
   */
  commandTimeoutMs?: number
}

/**
 * A `ConversationStore` in Redis, for any message type (it keeps JSON): fits `createClient` over an AI SDK
 * model and over `@google/genai` alike. `close` ends the client the store made (not one you passed).
 *
 * @example
 * const store: RedisConversationStore = createRedisStore({ url: "redis://127.0.0.1:6379" })
 */
export interface RedisConversationStore {
  /** The conversation and its version; `Message` is whatever type of message you saved. */
  load<Message = unknown>(id: string): Promise<StoredConversation<Message> | undefined>
  /** Writes the record if the conversation is still at `expectedVersion` (`0`: it must not exist yet). */
  save<Message>(id: string, record: ConversationRecord<Message>, expectedVersion: number): Promise<boolean>
  /** Forgets the conversation (no error when there is none). */
  delete(id: string): Promise<void>
  /**
   * `true` for the first claim of `key` across every instance on this Redis, then `false` until
   * `ttlSeconds` have passed: one `SET NX EX`. Makes the store a `ClaimStore`, for `claims`.
   */
  claim(key: string, ttlSeconds: number): Promise<boolean>
  close(): Promise<void>
}

const DEFAULT_KEY_PREFIX = 'toolnexus:conversation:'
const DEFAULT_CLAIM_KEY_PREFIX = 'toolnexus:claim:'
const DEFAULT_COMMAND_TIMEOUT_MS = 10_000
const CONNECT_TIMEOUT_MS = 5_000

// The compare-and-set, as one script: Redis runs a script atomically, so no other command sees the hash
// between the version check and the write, and a script that fails writes nothing. The key's TTL is
// set again (or removed) with the write, so expiry counts from the last save.
const SAVE_SCRIPT = `
local current = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if current ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'version', current + 1, 'record', ARGV[2])
local ttl = tonumber(ARGV[3])
if ttl > 0 then redis.call('EXPIRE', KEYS[1], ttl) else redis.call('PERSIST', KEYS[1]) end
return current + 1
`

// A claim: set only if absent, with its expiry, in one command (the script keeps the client's surface
// to `eval`). A key already set answers nil: claimed before.
const CLAIM_SCRIPT = `
if redis.call('SET', KEYS[1], '1', 'NX', 'EX', tonumber(ARGV[1])) then return 1 end
return 0
`

/**
 * A `ConversationStore` in Redis, through the official client `redis` (node-redis), an optional peer
 * dependency: `npm install redis`. Each conversation is one hash (`version`, `record` as JSON text) under
 * `keyPrefix + id`; a save is a compare-and-set in one server-side script, so instances behind a load
 * balancer never overwrite each other's turns. With `url` the store makes its client lazily (commands
 * fail fast while Redis is unreachable, instead of queueing) and reconnects on the next call after a
 * failure. Every failure is a `StoreError` whose message never contains the URL or its password.
 *
 * @example
 * import { createClient } from 'toolnexus'
 * import { createRedisStore } from 'toolnexus/redis'
 * const store = createRedisStore({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', ttlSeconds: 7 * 86_400 })
 * const client = createClient({ model, store })
 * await client.ask('Hello', { id: 'user-1' })
 */
export function createRedisStore(options: RedisStoreOptions): RedisConversationStore {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigError(
      'createRedisStore needs { url } or { client }, like createRedisStore({ url: process.env.REDIS_URL }).',
    )
  }
  const ttlMs = readTtlSeconds(options.ttlSeconds, 'createRedisStore')
  const ttlSeconds = ttlMs === undefined ? 0 : ttlMs / 1000
  const keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX
  if (typeof keyPrefix !== 'string') {
    throw new ConfigError('createRedisStore: `keyPrefix` must be a string, like "chat:".')
  }
  const claimKeyPrefix = options.claimKeyPrefix ?? DEFAULT_CLAIM_KEY_PREFIX
  if (typeof claimKeyPrefix !== 'string' || claimKeyPrefix === keyPrefix) {
    throw new ConfigError(
      'createRedisStore: `claimKeyPrefix` must be a string other than `keyPrefix`, like "chat-claim:".',
    )
  }
  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS
  if (!(typeof commandTimeoutMs === 'number' && commandTimeoutMs > 0 && Number.isFinite(commandTimeoutMs))) {
    throw new ConfigError('createRedisStore: `commandTimeoutMs` must be a positive number of milliseconds.')
  }
  const connection = readConnection(options, commandTimeoutMs)
  const secrets = connectionSecrets(options.url)
  const fail = (operation: 'load' | 'save' | 'delete' | 'claim', id: string, error: unknown) =>
    storeFailure({ store: 'Redis', operation, id, error, secrets })

  return {
    async load<Message>(id: string) {
      const client = await connection.get()
      let reply: unknown
      try {
        reply = await client.hmGet(keyPrefix + id, ['version', 'record'])
      } catch (error) {
        throw fail('load', id, error)
      }
      const [version, record] = Array.isArray(reply) ? reply : []
      if (version === null && record === null) return undefined
      const parsed = typeof version === 'string' ? Number(version) : Number.NaN
      if (!Number.isInteger(parsed) || parsed < 1 || typeof record !== 'string') {
        throw fail('load', id, new Error(`key ${keyPrefix}… is not a conversation this store wrote`))
      }
      return { ...decodeRecord<Message>(record, (error) => fail('load', id, error)), version: parsed }
    },

    async save<Message>(id: string, record: ConversationRecord<Message>, expectedVersion: number) {
      checkVersion(expectedVersion)
      const text = encodeRecord(record)
      const client = await connection.get()
      let reply: unknown
      try {
        reply = await client.eval(SAVE_SCRIPT, {
          keys: [keyPrefix + id],
          arguments: [String(expectedVersion), text, String(ttlSeconds)],
        })
      } catch (error) {
        throw fail('save', id, error)
      }
      return Number(reply) > 0
    },

    async delete(id) {
      const client = await connection.get()
      try {
        await client.del(keyPrefix + id)
      } catch (error) {
        throw fail('delete', id, error)
      }
    },

    async claim(key, ttlSeconds) {
      checkClaim(key, ttlSeconds)
      const client = await connection.get()
      let reply: unknown
      try {
        reply = await client.eval(CLAIM_SCRIPT, {
          keys: [claimKeyPrefix + key],
          arguments: [String(ttlSeconds)],
        })
      } catch (error) {
        throw fail('claim', key, error)
      }
      return Number(reply) === 1
    },

    close: () => connection.close(),
  }
}

interface Connection {
  get(): Promise<RedisClientLike>
  close(): Promise<void>
}

/** A node-redis client we own: made on first use, made again after it failed or Redis dropped it. */
interface OwnedClient extends RedisClientLike {
  on(event: 'error', listener: (error: unknown) => void): unknown
  connect(): Promise<unknown>
  destroy(): void
  close(): Promise<void>
  readonly isOpen: boolean
  readonly isReady: boolean
}

function readConnection(options: RedisStoreOptions, commandTimeoutMs: number): Connection {
  if (options.client !== undefined) {
    const { client } = options
    if (typeof client?.eval !== 'function' || typeof client.hmGet !== 'function') {
      throw new ConfigError(
        'createRedisStore: `client` must be a node-redis client: createClient({ url }) from the `redis` package.',
      )
    }
    let connecting: Promise<unknown> | undefined
    return {
      async get() {
        if (client.isOpen === false && typeof client.connect === 'function') {
          connecting ??= client.connect().finally(() => {
            connecting = undefined
          })
          try {
            await connecting
          } catch (error) {
            throw storeFailure({ store: 'Redis', operation: 'connect', id: undefined, error, secrets: [] })
          }
        }
        return client
      },
      async close() {},
    }
  }
  const { url } = options
  if (typeof url !== 'string' || !/^rediss?:\/\//.test(url)) {
    throw new ConfigError(
      'createRedisStore: `url` must be a redis:// or rediss:// URL (or pass { client }), like createRedisStore({ url: process.env.REDIS_URL }).',
    )
  }
  const secrets = connectionSecrets(url)
  let current: Promise<OwnedClient> | undefined
  let closed = false
  const open = async (): Promise<OwnedClient> => {
    let module: { createClient(options: unknown): unknown }
    try {
      module = (await import('redis')) as unknown as typeof module
    } catch (error) {
      throw new StoreError('toolnexus/redis needs the `redis` package (node-redis): npm install redis', {
        operation: 'connect',
        cause: error,
      })
    }
    const client = module.createClient({
      url,
      // Fail a command at once while Redis is unreachable rather than queue it for later.
      disableOfflineQueue: true,
      commandOptions: { timeout: commandTimeoutMs },
      socket: {
        connectTimeout: CONNECT_TIMEOUT_MS,
        // A few quick reconnects after a drop; then the client closes and the next call makes a new one.
        reconnectStrategy: (retries: number) => (retries < 3 ? 50 * 2 ** retries : false),
      },
    }) as OwnedClient
    // Errors reach the caller through the failed command; an unheard 'error' event would end the process.
    client.on('error', () => {})
    try {
      await client.connect()
    } catch (error) {
      client.destroy()
      throw storeFailure({ store: 'Redis', operation: 'connect', id: undefined, error, secrets })
    }
    return client
  }
  return {
    async get() {
      if (closed) throw new StoreError('The Redis store was closed.', { operation: 'connect' })
      while (true) {
        if (current === undefined) {
          const opening = open()
          current = opening
          opening.catch(() => {
            if (current === opening) current = undefined
          })
        }
        const pending = current
        const client = await pending
        if (client.isReady) return client
        // Redis dropped it (the client is reconnecting, or gave up): connect a new one now.
        if (current === pending) {
          current = undefined
          client.destroy()
        }
      }
    },
    async close() {
      closed = true
      const client = await current?.catch(() => undefined)
      current = undefined
      if (client?.isOpen === true) await client.close()
    },
  }
}
