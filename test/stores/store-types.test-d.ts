// Type-checked by `tsc` (not run): the real drivers' objects fit what the stores take, and the stores
// fit createClient for both message types.
import { GoogleGenAI } from '@google/genai'
import type { ModelMessage } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import pg from 'pg'
import { createClient as createRedisClient } from 'redis'
import { expectTypeOf } from 'vitest'
import type { Client } from '../../src/client/client.js'
import type { GenAIMessage } from '../../src/client/client-options.js'
import { createClient } from '../../src/client/create-client.js'
import type { ClaimStore } from '../../src/shared/claim-store.js'
import type { ConversationStore } from '../../src/stores/conversation-store.js'
import { createPostgresStore, type PostgresPoolLike } from '../../src/stores/postgres-store.js'
import { createRedisStore, type RedisClientLike } from '../../src/stores/redis-store.js'

expectTypeOf(createRedisClient({ url: 'redis://127.0.0.1:6379' })).toExtend<RedisClientLike>()
expectTypeOf(new pg.Pool()).toExtend<PostgresPoolLike>()
expectTypeOf(new pg.Client()).toExtend<PostgresPoolLike>()

const model = new MockLanguageModelV4()
createClient({ model, store: createRedisStore({ url: 'redis://127.0.0.1:6379' }) })
// The database stores are claim stores for `claims`.
expectTypeOf(createRedisStore({ url: 'redis://127.0.0.1:6379' })).toExtend<ClaimStore>()
expectTypeOf(createPostgresStore({ connectionString: 'postgres://db/app' })).toExtend<ClaimStore>()
createClient({ model, store: createPostgresStore({ connectionString: 'postgres://x@y/z' }) })
const genai = new GoogleGenAI({ apiKey: 'k' })
expectTypeOf(
  createClient({ genai, model: 'gemini-2.5-flash', store: createRedisStore({ url: 'redis://h' }) }),
).toEqualTypeOf<Client<GenAIMessage>>()
expectTypeOf(createRedisStore({ url: 'redis://h' })).toExtend<ConversationStore<ModelMessage>>()
expectTypeOf(createPostgresStore({ pool: new pg.Pool() })).toExtend<ConversationStore<GenAIMessage>>()
createClient({
  genai,
  model: 'gemini-2.5-flash',
  store: createPostgresStore({ connectionString: 'postgres://h' }),
})
