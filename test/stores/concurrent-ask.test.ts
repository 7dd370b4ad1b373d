// Two real Node processes ask on one conversation id at the same time, over one Redis or one Postgres:
// every turn of both is kept, each whole (question, tool call, tool result, answer), none twice.
import type { ModelMessage } from 'ai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPostgresStore } from '../../src/stores/postgres-store.js'
import { createRedisStore } from '../../src/stores/redis-store.js'
import { findPostgresBin, findRedisServer, requireBinary } from '../support/database-binaries.js'
import { startNodeWorker } from '../support/node-worker.js'
import { type PostgresServer, startPostgresServer } from '../support/postgres-server.js'
import { type RedisServer, startRedisServer } from '../support/redis-server.js'
import { openaiChatProtocol } from '../support/scripted-openai.js'
import { type ScriptedServer, startScriptedServer } from '../support/scripted-server.js'
import { lookupScript } from './fixtures/lookup-model.js'

const haveRedis = requireBinary(findRedisServer(), 'the concurrent ask test on Redis')
const havePostgres = requireBinary(findPostgresBin(), 'the concurrent ask test on Postgres')
const ASKS = 5

let model: ScriptedServer
let redis: RedisServer | undefined
let postgres: PostgresServer | undefined

beforeAll(async () => {
  model = await startScriptedServer({ protocol: openaiChatProtocol, script: lookupScript })
  ;[redis, postgres] = await Promise.all([
    haveRedis ? startRedisServer() : undefined,
    havePostgres ? startPostgresServer() : undefined,
  ])
})

afterAll(async () => {
  await Promise.all([model?.close(), redis?.stop(), postgres?.stop()])
})

const cases = [
  { name: 'Redis', available: haveRedis, store: 'redis', url: () => redis?.url ?? '' },
  {
    name: 'Postgres',
    available: havePostgres,
    store: 'postgres',
    url: () => postgres?.connectionString ?? '',
  },
] as const

describe.each(cases)('two processes that ask on one id at the same time, over $name', (kind) => {
  it.runIf(kind.available)(
    'lose no turn',
    async () => {
      const id = `shared-${kind.store}`
      const env = {
        STORE: kind.store,
        STORE_URL: kind.url(),
        MODEL_URL: model.url,
        ID: id,
        ASKS: String(ASKS),
      }
      const file = new URL('./fixtures/ask-worker.ts', import.meta.url)
      const workers = [
        startNodeWorker(file, { ...env, NAME: 'a' }),
        startNodeWorker(file, { ...env, NAME: 'b' }),
      ]
      try {
        expect(await Promise.all(workers.map((worker) => worker.nextLine()))).toStrictEqual([
          'ready',
          'ready',
        ])
        for (const worker of workers) worker.send('go')
        const reports = await Promise.all(workers.map(async (worker) => JSON.parse(await worker.nextLine())))
        expect(await Promise.all(workers.map((worker) => worker.exited))).toStrictEqual([0, 0])

        const store =
          kind.store === 'redis'
            ? createRedisStore({ url: kind.url() })
            : createPostgresStore({ connectionString: kind.url() })
        const messages = (await store.load<ModelMessage>(id))?.messages ?? []
        await store.close()

        // Every question of both processes, once each.
        const questions = messages
          .filter((message) => message.role === 'user')
          .map((message) => message.content)
        const expected = ['a', 'b'].flatMap((name) =>
          Array.from({ length: ASKS }, (_, index) => `${name}-${index}`),
        )
        expect([...questions].sort()).toStrictEqual(expected)
        // Each turn whole and in order: question, tool call, tool result, answer.
        expect(messages).toHaveLength(ASKS * 2 * 4)
        for (let start = 0; start < messages.length; start += 4) {
          const [question, call, result, answer] = messages.slice(start, start + 4)
          expect([question?.role, call?.role, result?.role, answer?.role]).toStrictEqual([
            'user',
            'assistant',
            'tool',
            'assistant',
          ])
          expect(JSON.stringify(answer?.content)).toContain(`answered value of ${String(question?.content)}`)
        }
        // The race was real: some saves found the other process's turn first and were appended after it.
        const conflicts = reports.reduce((sum, report) => sum + Number(report.conflicts), 0)
        expect(conflicts).toBeGreaterThan(0)
      } finally {
        for (const worker of workers) worker.kill()
      }
    },
    180_000,
  ) // two Node processes start through tsx and ask ten questions: slow on a loaded machine
})
