// Durable runs on DBOS over a real Postgres the test starts, with worker processes that are SIGKILLed
// midway: a run resumes on the next worker with every completed tool call taken from the record, a call
// killed inside its tool gets the same idempotency key on its second attempt, a finished run's id gives
// back its recorded result, and a run that waits for approval resumes once. AI SDK and genai transports.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { findPostgresBin, requireBinary } from '../support/database-binaries.js'
import { type PostgresServer, startPostgresServer } from '../support/postgres-server.js'
import { type ScriptedGemini, startScriptedGemini } from '../support/scripted-gemini.js'
import { openaiChatProtocol } from '../support/scripted-openai.js'
import { type ScriptedServer, startScriptedServer } from '../support/scripted-server.js'
import { type DurableWorker, sideEffects, startDurableWorker, waitFor } from './durable-worker-harness.js'
import { geminiRefundScript, type HangGate, openaiRefundScript } from './fixtures/refund-models.js'

const havePostgres = requireBinary(findPostgresBin(), 'the durable-run tests')

let postgres: PostgresServer | undefined
let openai: ScriptedServer
let gemini: ScriptedGemini
const hang: HangGate = new Set()
let dir = ''
const workers: DurableWorker[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolnexus-durable-'))
  ;[postgres, openai, gemini] = await Promise.all([
    havePostgres ? startPostgresServer() : undefined,
    startScriptedServer({ protocol: openaiChatProtocol, script: openaiRefundScript(hang) }),
    startScriptedGemini({ script: geminiRefundScript(hang) }),
  ])
}, 120_000)

afterEach(async () => {
  hang.clear()
  await Promise.all(workers.splice(0).map((worker) => worker.kill()))
})

afterAll(async () => {
  await Promise.all([postgres?.stop(), openai?.close(), gemini?.close()])
  rmSync(dir, { recursive: true, force: true })
})

const transports = [
  { name: 'AI SDK', env: () => ({ MODEL_URL: `${openai.url}/v1` }), requests: () => openai.requests.length },
  { name: 'genai', env: () => ({ GEMINI_URL: gemini.baseUrl }), requests: () => gemini.requests.length },
] as const

let next = 0
/** A fresh executor id, run id and side-effect file for one test. */
function fresh(prefix: string): { executor: string; runId: string; file: string; block: string } {
  next++
  return {
    executor: `${prefix}-executor-${next}`,
    runId: `${prefix}-run-${next}`,
    file: join(dir, `${prefix}-${next}.log`),
    block: join(dir, `${prefix}-${next}.block`),
  }
}

async function worker(env: Record<string, string>): Promise<DurableWorker> {
  const started = await startDurableWorker({ DATABASE_URL: postgres?.connectionString ?? '', ...env })
  workers.push(started)
  return started
}

describe.each(transports)('a durable run over the $name transport', (transport) => {
  it.runIf(havePostgres)(
    'killed right after its tool step, finishes on the next worker with the tool run once',
    async () => {
      const { executor, runId, file } = fresh(`after-${transport.name.replace(' ', '')}`)
      const env = { ...transport.env(), EXECUTOR_ID: executor, SIDE_EFFECTS: file }
      const order = `${runId}-order`
      hang.add(order)
      const first = await worker(env)
      const before = transport.requests()
      void first.run({ runId, prompt: order })
      // The second model call has reached the model: the tool step is recorded.
      await waitFor(() => transport.requests() >= before + 2, 'the model call after the tool')
      await first.kill()
      hang.delete(order)
      const second = await worker(env)
      const result = await second.run({ runId, prompt: order })
      expect(result).toStrictEqual({
        runId,
        status: 'done',
        text: `refunded ${order}`,
        calls: [`refunded ${order}`],
      })
      const lines = sideEffects(file)
      expect(lines.filter((line) => line.startsWith('done '))).toHaveLength(1)
      expect(lines).toHaveLength(2)
      // Again, on yet another worker: the recorded result, with no model call and no tool call.
      await second.kill()
      const third = await worker(env)
      const requests = transport.requests()
      expect(await third.run({ runId, prompt: order })).toStrictEqual(result)
      expect(transport.requests()).toBe(requests)
      expect(sideEffects(file)).toStrictEqual(lines)
    },
    180_000,
  )
})
