import { inspect } from 'node:util'
import { createClient as createRedisClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, StoreError } from '../../src/errors.js'
import { createRedisStore } from '../../src/stores/redis-store.js'
import { findRedisServer, requireBinary } from '../support/database-binaries.js'
import { freePort } from '../support/free-port.js'
import { type RedisServer, startRedisServer } from '../support/redis-server.js'
import { describeStoreConformance, sampleMessages } from './store-conformance.js'

const available = requireBinary(findRedisServer(), 'the Redis store tests')
let redis: RedisServer

describe.runIf(available)('Redis store', () => {
  beforeAll(async () => {
    redis = await startRedisServer()
  })
  afterAll(async () => {
    await redis?.stop()
  })

  describeStoreConformance({
    name: 'Redis',
    create: ({ ttlSeconds }) => {
      const store = createRedisStore({ url: redis.url, ...(ttlSeconds === undefined ? {} : { ttlSeconds }) })
      return { store, close: () => store.close() }
    },
    shared: true,
  })

  it('works over a node-redis client you pass, connecting it on first use, and leaves it open', async () => {
    const client = createRedisClient({ url: redis.url })
    const store = createRedisStore({ client, keyPrefix: 'mine:' })
    expect(await store.save('a', { messages: sampleMessages('client') }, 0)).toBe(true)
    expect(await client.hGet('mine:a', 'version')).toBe('1')
    expect(await client.ttl('mine:a')).toBe(-1)
    await store.close()
    expect(client.isOpen).toBe(true)
    await client.close()
  })

  it('sets the key to expire ttlSeconds after each save', async () => {
    const client = await createRedisClient({ url: redis.url }).connect()
    const store = createRedisStore({ client, ttlSeconds: 3600 })
    await store.save('ttl', { messages: [] }, 0)
    const ttl = await client.ttl('toolnexus:conversation:ttl')
    expect(ttl > 3590 && ttl <= 3600).toBe(true)
    await client.close()
  })

  it('refuses a key it did not write with a StoreError, not a crash', async () => {
    const client = await createRedisClient({ url: redis.url }).connect()
    await client.hSet('toolnexus:conversation:foreign', { version: 'x', record: '{' })
    await client.set('toolnexus:conversation:string', 'plain')
    const store = createRedisStore({ client })
    await expect(store.load('foreign')).rejects.toThrow(StoreError)
    await expect(store.load('string')).rejects.toThrow(/could not load conversation "string": WRONGTYPE/)
    await expect(store.save('string', { messages: [] }, 1)).rejects.toThrow(StoreError)
    expect(await client.get('toolnexus:conversation:string')).toBe('plain')
    await client.close()
  })

  it('refuses wrong options with a ConfigError that says what to pass', () => {
    expect(() => createRedisStore({ url: 'http://x' })).toThrow(ConfigError)
    expect(() => createRedisStore({ url: 'http://x' })).toThrow('must be a redis:// or rediss:// URL')
    expect(() => createRedisStore({ client: {} as never })).toThrow('must be a node-redis client')
    expect(() => createRedisStore({ url: redis.url, ttlSeconds: 0 })).toThrow('`ttlSeconds` must be')
    expect(() => createRedisStore(undefined as never)).toThrow('createRedisStore needs { url } or { client }')
  })
})

describe.runIf(available)('Redis store that is down', () => {
  it('fails each call with a StoreError that names the operation and never shows the password', async () => {
    const port = await freePort()
    const url = `redis://:hunter2-secret@127.0.0.1:${port}`
    const store = createRedisStore({ url })
    for (const call of [
      () => store.load('c'),
      () => store.save('c', { messages: sampleMessages('x') }, 0),
      () => store.delete('c'),
    ]) {
      const error = await call().catch((caught: unknown) => caught)
      expect(StoreError.isInstance(error)).toBe(true)
      expect((error as StoreError).operation).toBe('connect')
      expect((error as StoreError).message).toMatch(/^The Redis store could not connect: .*ECONNREFUSED/)
      expect(inspect(error, { depth: 10 })).not.toContain('hunter2-secret')
      expect(JSON.stringify(error)).not.toContain('hunter2-secret')
    }
    await store.close()
  })

  it('says so when the password is wrong, without showing it', async () => {
    const server = await startRedisServer({ password: 'right-password' })
    const store = createRedisStore({ url: `redis://:wrong-password-x@127.0.0.1:${server.port}` })
    try {
      const error = await store.load('c').catch((caught: unknown) => caught)
      expect(StoreError.isInstance(error)).toBe(true)
      expect((error as StoreError).message).toMatch(/^The Redis store could not connect: .*WRONGPASS/)
      expect(inspect(error, { depth: 10 })).not.toContain('wrong-password-x')
    } finally {
      await store.close()
      await server.stop()
    }
  })

  it('fails a save while Redis is gone, and the same store works again once Redis is back', async () => {
    const server = await startRedisServer({ password: 'pa55word-x' })
    const store = createRedisStore({ url: server.url })
    try {
      await store.save('c', { messages: sampleMessages('before') }, 0)
      await server.stop()
      const error = await store.save('c', { messages: sampleMessages('after') }, 1).catch((caught) => caught)
      expect(StoreError.isInstance(error)).toBe(true)
      expect(inspect(error, { depth: 10 })).not.toContain('pa55word-x')
      const again = await startRedisServer({ password: 'pa55word-x', port: server.port })
      try {
        // The restarted server has no data (no persistence in tests): the conversation starts anew.
        expect(await store.save('c', { messages: sampleMessages('after') }, 0)).toBe(true)
        expect((await store.load('c'))?.messages).toStrictEqual(sampleMessages('after'))
      } finally {
        await again.stop()
      }
    } finally {
      await store.close()
      await server.stop()
    }
  })
})
