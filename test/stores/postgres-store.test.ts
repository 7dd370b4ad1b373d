import { inspect } from 'node:util'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, StoreError } from '../../src/errors.js'
import { createPostgresStore, postgresStoreSchema } from '../../src/stores/postgres-store.js'
import { findPostgresBin, requireBinary } from '../support/database-binaries.js'
import { freePort } from '../support/free-port.js'
import { type PostgresServer, startPostgresServer } from '../support/postgres-server.js'
import { describeStoreConformance, sampleMessages } from './store-conformance.js'

const available = requireBinary(findPostgresBin(), 'the Postgres store tests')
let postgres: PostgresServer

describe.runIf(available)('Postgres store', () => {
  beforeAll(async () => {
    postgres = await startPostgresServer()
  })
  afterAll(async () => {
    await postgres?.stop()
  })

  describeStoreConformance({
    name: 'Postgres',
    create: ({ ttlSeconds }) => {
      const store = createPostgresStore({
        connectionString: postgres.connectionString,
        ...(ttlSeconds === undefined ? {} : { ttlSeconds }),
      })
      return { store, close: () => store.close() }
    },
    shared: true,
  })

  it('creates its table once even when many stores start at the same time', async () => {
    const stores = Array.from({ length: 6 }, () =>
      createPostgresStore({ connectionString: postgres.connectionString, table: 'app_racing' }),
    )
    const saved = await Promise.all(
      stores.map((store, index) => store.save(`c${index}`, { messages: sampleMessages(`${index}`) }, 0)),
    )
    expect(saved).toStrictEqual([true, true, true, true, true, true])
    await Promise.all(stores.map((store) => store.close()))
  })

  it('works over a pg Pool you pass, in a schema-qualified table, and leaves the pool open', async () => {
    const pool = new pg.Pool({ connectionString: postgres.connectionString })
    await pool.query('CREATE SCHEMA IF NOT EXISTS app')
    const store = createPostgresStore({ pool, table: 'app.chats' })
    expect(await store.save('a', { messages: sampleMessages('pool') }, 0)).toBe(true)
    const { rows } = await pool.query('SELECT id, version, expires_at FROM app.chats')
    expect(rows).toStrictEqual([{ id: 'a', version: '1', expires_at: null }])
    await store.close()
    expect((await pool.query('SELECT 1 AS one')).rows).toStrictEqual([{ one: 1 }])
    await pool.end()
  })

  it('with createTable: false uses a table made from postgresStoreSchema, and says so when it is missing', async () => {
    const pool = new pg.Pool({ connectionString: postgres.connectionString })
    const missing = createPostgresStore({ pool, table: 'not_there', createTable: false })
    await expect(missing.load('x')).rejects.toThrow(
      'The Postgres store could not load conversation "x": 42P01: relation "not_there" does not exist',
    )
    await pool.query(postgresStoreSchema('migrated'))
    const store = createPostgresStore({ pool, table: 'migrated', createTable: false })
    expect(await store.save('x', { messages: [] }, 0)).toBe(true)
    await pool.end()
  })

  it('deleteExpired removes only the rows whose expiry passed', async () => {
    const pool = new pg.Pool({ connectionString: postgres.connectionString })
    const short = createPostgresStore({ pool, table: 'sweep', ttlSeconds: 1 })
    const kept = createPostgresStore({ pool, table: 'sweep' })
    await short.save('short', { messages: [] }, 0)
    await kept.save('kept', { messages: [] }, 0)
    await pool.query(`UPDATE sweep SET expires_at = now() - interval '1 second' WHERE id = 'short'`)
    expect(await kept.deleteExpired()).toBe(1)
    expect((await pool.query('SELECT id FROM sweep')).rows).toStrictEqual([{ id: 'kept' }])
    await pool.end()
  })

  it('refuses wrong options with a ConfigError that says what to pass', () => {
    expect(() => createPostgresStore({ connectionString: 'mysql://x' })).toThrow(ConfigError)
    expect(() => createPostgresStore({ pool: {} as never })).toThrow('`pool` must be a pg Pool')
    expect(() =>
      createPostgresStore({ connectionString: postgres.connectionString, table: 'x; DROP TABLE y' }),
    ).toThrow('`table` must be a table name')
    expect(() =>
      createPostgresStore({ connectionString: postgres.connectionString, ttlSeconds: -1 }),
    ).toThrow('`ttlSeconds` must be')
  })
})

describe.runIf(available)('Postgres store that is down', () => {
  it('fails each call with a StoreError that names the operation and never shows the password', async () => {
    const port = await freePort()
    const store = createPostgresStore({
      connectionString: `postgres://toolnexus:hunter2-secret@127.0.0.1:${port}/postgres`,
    })
    for (const [operation, call] of [
      ['load', () => store.load('c')],
      ['save', () => store.save('c', { messages: sampleMessages('x') }, 0)],
      ['delete', () => store.delete('c')],
    ] as const) {
      const error = await call().catch((caught: unknown) => caught)
      expect(StoreError.isInstance(error)).toBe(true)
      expect((error as StoreError).operation).toBe(operation)
      expect((error as StoreError).message).toMatch(
        new RegExp(`^The Postgres store could not ${operation} conversation "c": .*ECONNREFUSED`),
      )
      expect(inspect(error, { depth: 10 })).not.toContain('hunter2-secret')
    }
    await store.close()
  })

  it('fails a save while Postgres is gone, and the same store works again once it is back', async () => {
    const server = await startPostgresServer()
    const store = createPostgresStore({ connectionString: server.connectionString })
    try {
      await store.save('c', { messages: sampleMessages('before') }, 0)
      const before = await store.load('c')
      await server.halt()
      await expect(store.save('c', { messages: sampleMessages('after') }, 1)).rejects.toThrow(StoreError)
      await expect(store.load('c')).rejects.toThrow(StoreError)
      await server.resume()
      expect(await store.load('c')).toStrictEqual(before)
      expect(await store.save('c', { messages: sampleMessages('after') }, before?.version ?? -1)).toBe(true)
    } finally {
      await store.close()
      await server.stop()
    }
  }, 180_000) // Postgres stopped and started again: slow on a loaded machine
})
