// Two real Node processes ask on one conversation id at the same time, over one Redis or one Postgres:
// every turn of both is kept, each whole (question, tool call, tool result, answer), none twice.
import type { ModelMessage } from 'ai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startNodeWorker } from '../support/node-worker.js'
import { openaiChatProtocol } from '../support/scripted-openai.js'
import { type ScriptedServer, startScriptedServer } from '../support/scripted-server.js'
import { sharedStores } from '../support/shared-stores.js'
import { lookupScript } from './fixtures/lookup-model.js'

const cases = sharedStores('the concurrent ask test')
const ASKS = 5

let model: ScriptedServer

beforeAll(async () => {
  model = await startScriptedServer({ protocol: openaiChatProtocol, script: lookupScript })
})

afterAll(async () => {
  await model?.close()
})

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

        const store = kind.open()
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
