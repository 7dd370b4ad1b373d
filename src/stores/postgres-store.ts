// `toolnexus/postgres`: conversations in PostgreSQL, shared by every instance. Loaded only through its
// subpath, so the root entry never touches `pg` (an optional peer dependency).

import { ConfigError, StoreError } from '../errors.js'
import { checkClaim } from '../shared/claim-store.js'
import { checkVersion } from './check-version.js'
import type { ConversationRecord, StoredConversation } from './conversation-store.js'
import { readTtlSeconds } from './read-ttl-seconds.js'
import { decodeRecord, encodeRecord } from './record-json.js'
import { connectionSecrets, storeFailure } from './store-failure.js'

/**
 * The part of a `pg` `Pool` (or `Client`) the store uses.
 *
 * @example
 * import { Pool } from 'pg'
 * const pool: PostgresPoolLike = new Pool({ connectionString: process.env.DATABASE_URL })
 */
export interface PostgresPoolLike {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>
}

/** Where the Postgres store connects: a connection string (the store makes and owns a pool), or yours. */
export type PostgresConnection =
  | {
      /** `postgres://user:password@host:5432/database` */
      connectionString: string
      pool?: undefined
    }
  | {
      /** A `pg` `Pool` you made (and end yourself). */
      pool: PostgresPoolLike
      connectionString?: undefined
    }

/**
 * What `createPostgresStore` takes.
 *
 * @example
 * const options: PostgresStoreOptions = { connectionString: process.env.DATABASE_URL ?? '', ttlSeconds: 86_400 }
 */
export type PostgresStoreOptions = PostgresConnection & {
  /** Seconds a conversation is kept after its last save. @default kept until deleted */
  ttlSeconds?: number
  /** The table, optionally schema-qualified (`app.conversations`). @default 'toolnexus_conversations' */
  table?: string
  /**
   * The table of claims (`claim`), optionally schema-qualified. @default the conversation table's name and
   * `_claims`, like 'toolnexus_conversations_claims'
   */
  claimsTable?: string
  /** Create the tables (and their expiry indexes) on first use if they are missing. @default true */
  createTable?: boolean
}

/**
 * A `ConversationStore` in Postgres, for any message type (it keeps JSON): fits `createClient` over an AI
 * SDK model and over `@google/genai` alike.
 *
 * @example
 * const store: PostgresConversationStore = createPostgresStore({ connectionString: 'postgres://db/app' })
 */
export interface PostgresConversationStore {
  /** The conversation and its version; `Message` is whatever type of message you saved. */
  load<Message = unknown>(id: string): Promise<StoredConversation<Message> | undefined>
  /** Writes the record if the conversation is still at `expectedVersion` (`0`: it must not exist yet). */
  save<Message>(id: string, record: ConversationRecord<Message>, expectedVersion: number): Promise<boolean>
  /** Forgets the conversation (no error when there is none). */
  delete(id: string): Promise<void>
  /**
   * `true` for the first claim of `key` across every instance on this database, then `false` until
   * `ttlSeconds` have passed: one `INSERT … ON CONFLICT` statement. Makes the store a `ClaimStore`, for
   * `claims`.
   */
  claim(key: string, ttlSeconds: number): Promise<boolean>
  /**
   * Deletes the rows whose expiry has passed (they are never loaded; this frees their space), and the
   * claims whose time is over. Resolves how many conversations it deleted.
   */
  deleteExpired(): Promise<number>
  /** Ends the pool the store made from `connectionString` (not a pool you passed). */
  close(): Promise<void>
}

const DEFAULT_TABLE = 'toolnexus_conversations'
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/
const CONNECT_TIMEOUT_MS = 10_000

/**
 * A `ConversationStore` in PostgreSQL, through `pg` (node-postgres), an optional peer dependency:
 * `npm install pg`. One row per conversation (`id`, `version`, `record` as `json`, `expires_at`); a save
 * is a single conditional statement (an `UPDATE … WHERE version = $expected`, or for a new conversation
 * an `INSERT … ON CONFLICT` that only replaces an expired row), so instances behind a load balancer never
 * overwrite each other's turns and a failed save writes nothing. The table is created on first use
 * (`createTable: false` if you manage the schema; the statement is in docs/stores.md). Every failure is a
 * `StoreError` whose message never contains the connection string or its password.
 *
 * @example
 * import { createClient } from 'toolnexus'
 * import { createPostgresStore } from 'toolnexus/postgres'
 * const store = createPostgresStore({ connectionString: process.env.DATABASE_URL ?? '', ttlSeconds: 30 * 86_400 })
 * const client = createClient({ model, store })
 * await client.ask('Hello', { id: 'user-1' })
 */
export function createPostgresStore(options: PostgresStoreOptions): PostgresConversationStore {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigError(
      'createPostgresStore needs { connectionString } or { pool }, like createPostgresStore({ connectionString: process.env.DATABASE_URL }).',
    )
  }
  const ttlMs = readTtlSeconds(options.ttlSeconds, 'createPostgresStore')
  const ttlSeconds = ttlMs === undefined ? null : ttlMs / 1000
  const name = options.table ?? DEFAULT_TABLE
  const table = quoteTable(name)
  const claimsName = options.claimsTable ?? `${typeof name === 'string' ? name : ''}_claims`
  const claims = quoteTable(claimsName)
  const secrets = connectionSecrets(options.connectionString)
  const pool = readPool(options)
  const fail = (
    operation: 'connect' | 'load' | 'save' | 'delete' | 'claim',
    id: string | undefined,
    error: unknown,
  ) => storeFailure({ store: 'Postgres', operation, id, error, secrets })

  let ready: Promise<void> | undefined
  const prepare = (): Promise<void> => {
    if (options.createTable === false) return Promise.resolve()
    if (ready === undefined) {
      const creating = createTableOnce(pool, table, name, claimsName)
      ready = creating
      // A failure is the caller's error now; the next call tries again.
      creating.catch(() => {
        if (ready === creating) ready = undefined
      })
    }
    return ready
  }
  const query = async (
    operation: 'load' | 'save' | 'delete' | 'claim',
    id: string | undefined,
    text: string,
    values: unknown[],
  ) => {
    try {
      await prepare()
      return await (await pool.get()).query(text, values)
    } catch (error) {
      throw fail(operation, id, error)
    }
  }

  return {
    async load<Message>(id: string) {
      const result = await query(
        'load',
        id,
        `SELECT version::text AS version, record::text AS record FROM ${table}
         WHERE id = $1 AND (expires_at IS NULL OR expires_at > now())`,
        [id],
      )
      const row = result.rows[0] as { version?: unknown; record?: unknown } | undefined
      if (row === undefined) return undefined
      const version = Number(row.version)
      if (!Number.isInteger(version) || version < 1 || typeof row.record !== 'string') {
        throw fail('load', id, new Error(`the row in ${table} is not one this store wrote`))
      }
      return { ...decodeRecord<Message>(row.record, (error) => fail('load', id, error)), version }
    },

    async save<Message>(id: string, record: ConversationRecord<Message>, expectedVersion: number) {
      checkVersion(expectedVersion)
      const text = encodeRecord(record)
      const expires = `CASE WHEN $3::integer IS NULL THEN NULL ELSE now() + $3::integer * interval '1 second' END`
      const result =
        expectedVersion === 0
          ? // New: insert, or take over a row whose expiry has passed (it no longer exists for load).
            await query(
              'save',
              id,
              `INSERT INTO ${table} AS current (id, version, record, expires_at)
               VALUES ($1, 1, $2::json, ${expires})
               ON CONFLICT (id) DO UPDATE
                 SET version = current.version + 1, record = EXCLUDED.record, expires_at = EXCLUDED.expires_at
                 WHERE current.expires_at IS NOT NULL AND current.expires_at <= now()
               RETURNING version`,
              [id, text, ttlSeconds],
            )
          : await query(
              'save',
              id,
              `UPDATE ${table} SET version = version + 1, record = $2::json, expires_at = ${expires}
               WHERE id = $1 AND version = $4 AND (expires_at IS NULL OR expires_at > now())
               RETURNING version`,
              [id, text, ttlSeconds, expectedVersion],
            )
      return result.rows.length === 1
    },

    async delete(id) {
      await query('delete', id, `DELETE FROM ${table} WHERE id = $1`, [id])
    },

    async claim(key, ttlSeconds) {
      checkClaim(key, ttlSeconds)
      // One statement: a new key is inserted; a key whose claim is over is taken again; a live claim is
      // left alone and returns no row.
      const result = await query(
        'claim',
        key,
        `INSERT INTO ${claims} AS current (key, expires_at)
         VALUES ($1, now() + $2::integer * interval '1 second')
         ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at
           WHERE current.expires_at <= now()
         RETURNING 1`,
        [key, ttlSeconds],
      )
      return result.rows.length === 1
    },

    async deleteExpired() {
      const result = await query(
        'delete',
        undefined,
        `DELETE FROM ${table} WHERE expires_at IS NOT NULL AND expires_at <= now()`,
        [],
      )
      await query('delete', undefined, `DELETE FROM ${claims} WHERE expires_at <= now()`, [])
      return result.rowCount ?? 0
    },

    close: () => pool.close(),
  }
}

/**
 * The `CREATE TABLE` statements of the store's tables, conversations and claims (what `createTable`
 * runs), for your migrations.
 *
 * @example
 * await pool.query(postgresStoreSchema('toolnexus_conversations'))
 */
export function postgresStoreSchema(table: string = DEFAULT_TABLE, claimsTable = `${table}_claims`): string {
  const quoted = quoteTable(table)
  const index = quoteIdentifier(`${table.split('.').pop() ?? table}_expires_at`)
  const claims = quoteTable(claimsTable)
  const claimsIndex = quoteIdentifier(`${claimsTable.split('.').pop() ?? claimsTable}_expires_at`)
  return `CREATE TABLE IF NOT EXISTS ${quoted} (
  id text PRIMARY KEY,
  version bigint NOT NULL,
  record json NOT NULL,
  expires_at timestamptz
);
CREATE INDEX IF NOT EXISTS ${index} ON ${quoted} (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS ${claims} (
  key text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS ${claimsIndex} ON ${claims} (expires_at);`
}

async function createTableOnce(
  pool: OwnedPool,
  table: string,
  name: string,
  claimsName: string,
): Promise<void> {
  // One statement list runs as one implicit transaction; the advisory lock (held to its end) keeps two
  // instances starting at once from racing on CREATE TABLE IF NOT EXISTS, which can fail in Postgres.
  await (await pool.get()).query(
    `SELECT pg_advisory_xact_lock(hashtext(${quoteLiteral(`toolnexus:${table}`)}));\n${postgresStoreSchema(name, claimsName)}`,
  )
}

interface OwnedPool {
  get(): Promise<PostgresPoolLike>
  close(): Promise<void>
}

interface PgPool extends PostgresPoolLike {
  on(event: 'error', listener: (error: unknown) => void): unknown
  end(): Promise<void>
}

function readPool(options: PostgresStoreOptions): OwnedPool {
  if (options.pool !== undefined) {
    const { pool } = options
    if (typeof pool?.query !== 'function') {
      throw new ConfigError('createPostgresStore: `pool` must be a pg Pool: new Pool({ connectionString }).')
    }
    return { get: async () => pool, close: async () => {} }
  }
  const { connectionString } = options
  if (typeof connectionString !== 'string' || !/^postgres(ql)?:\/\//.test(connectionString)) {
    throw new ConfigError(
      'createPostgresStore: `connectionString` must be a postgres:// URL (or pass { pool }), like createPostgresStore({ connectionString: process.env.DATABASE_URL }).',
    )
  }
  let made: Promise<PgPool> | undefined
  let closed = false
  return {
    get() {
      if (closed)
        return Promise.reject(new StoreError('The Postgres store was closed.', { operation: 'connect' }))
      made ??= (async () => {
        let module: { default?: { Pool?: unknown }; Pool?: unknown }
        try {
          module = (await import('pg')) as typeof module
        } catch (error) {
          made = undefined
          throw new StoreError('toolnexus/postgres needs the `pg` package: npm install pg', {
            operation: 'connect',
            cause: error,
          })
        }
        const Pool = (module.default?.Pool ?? module.Pool) as new (config: unknown) => PgPool
        const pool = new Pool({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS })
        // An idle connection that breaks is reported here; unheard, it would end the process. The next
        // query gets a fresh connection (or the error).
        pool.on('error', () => {})
        return pool
      })()
      return made
    },
    async close() {
      closed = true
      const pool = await made?.catch(() => undefined)
      made = undefined
      await pool?.end()
    },
  }
}

function quoteTable(table: unknown): string {
  const parts = typeof table === 'string' ? table.split('.') : []
  if (parts.length < 1 || parts.length > 2 || !parts.every((part) => IDENTIFIER.test(part))) {
    throw new ConfigError(
      `createPostgresStore: \`table\` must be a table name (letters, digits, _), optionally with its schema, like "app.conversations"; got ${JSON.stringify(table)}.`,
    )
  }
  return parts.map(quoteIdentifier).join('.')
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`
}
