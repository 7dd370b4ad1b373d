// One Redis and one Postgres for a test file whose processes share a store: each started before the
// file's tests where its binary exists, stopped after them.
import { afterAll, beforeAll } from 'vitest'
import { createPostgresStore, type PostgresConversationStore } from '../../src/stores/postgres-store.js'
import { createRedisStore, type RedisConversationStore } from '../../src/stores/redis-store.js'
import { findPostgresBin, findRedisServer, requireBinary } from './database-binaries.js'
import { type PostgresServer, startPostgresServer } from './postgres-server.js'
import { type RedisServer, startRedisServer } from './redis-server.js'

/** One shared store: its name, whether it can run here, and how to reach it. */
export interface SharedStore {
  name: 'Redis' | 'Postgres'
  available: boolean
  /** What the worker processes are told to open (`STORE`). */
  store: 'redis' | 'postgres'
  /** Its URL, once started. */
  url(): string
  /** A store of this kind on it, for the test to read what the workers saved. */
  open(): RedisConversationStore | PostgresConversationStore
}

/**
 * Starts Redis and Postgres for this file (`what` names the test in the skip message when a binary is
 * missing) and lists them, for `describe.each`.
 *
 * @example
 * const stores = sharedStores('the concurrent ask test')
 * describe.each(stores)('over $name', (kind) => { it.runIf(kind.available)('…', async () => {}) })
 */
export function sharedStores(what: string): readonly SharedStore[] {
  const haveRedis = requireBinary(findRedisServer(), `${what} on Redis`)
  const havePostgres = requireBinary(findPostgresBin(), `${what} on Postgres`)
  let redis: RedisServer | undefined
  let postgres: PostgresServer | undefined
  beforeAll(async () => {
    ;[redis, postgres] = await Promise.all([
      haveRedis ? startRedisServer() : undefined,
      havePostgres ? startPostgresServer() : undefined,
    ])
  })
  afterAll(async () => {
    await Promise.all([redis?.stop(), postgres?.stop()])
  })
  const redisUrl = () => redis?.url ?? ''
  const postgresUrl = () => postgres?.connectionString ?? ''
  return [
    {
      name: 'Redis',
      available: haveRedis,
      store: 'redis',
      url: redisUrl,
      open: () => createRedisStore({ url: redisUrl() }),
    },
    {
      name: 'Postgres',
      available: havePostgres,
      store: 'postgres',
      url: postgresUrl,
      open: () => createPostgresStore({ connectionString: postgresUrl() }),
    },
  ]
}
