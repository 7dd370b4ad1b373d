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
    300_000,
  )

  it.runIf(havePostgres)(
    'that waits for approval resumes once, whichever workers the answer reaches',
    async () => {
      const { executor, runId, file } = fresh(`approval-${transport.name.replace(' ', '')}`)
      const env = { ...transport.env(), EXECUTOR_ID: executor, SIDE_EFFECTS: file }
      const order = `approve-${runId}`
      const first = await worker(env)
      const suspended = await first.run({ runId, prompt: order })
      expect(suspended.status).toBe('suspended')
      expect(sideEffects(file)).toStrictEqual([])
      const second = await worker({ ...env, EXECUTOR_ID: `${executor}-b` })
      const resumed = await second.run({
        runId: `${runId}-resume`,
        resume: { state: suspended.state, approve: true },
      })
      expect(resumed).toStrictEqual({
        runId: `${runId}-resume`,
        status: 'done',
        text: `refunded ${order}`,
        calls: [`refunded ${order}`],
      })
      // The same answer again, on the first worker: the resumed run's record, and the refund stays one.
      const requests = transport.requests()
      const again = await first.run({
        runId: `${runId}-resume`,
        resume: { state: suspended.state, approve: true },
      })
      expect(again).toStrictEqual(resumed)
      expect(transport.requests()).toBe(requests)
      expect(sideEffects(file).filter((line) => line.startsWith('done '))).toHaveLength(1)
    },
    300_000,
  )
})

/** Whether the model got the tool's result for `order` (its call after the tool step). */
function sawToolResult(order: string): boolean {
  return openai.requests.some((request) => {
    const messages = request.body?.messages as Array<{ role: string }> | undefined
    return messages?.at(-1)?.role === 'tool' && JSON.stringify(messages).includes(order)
  })
}

describe('durable runs on several workers', () => {
  it.runIf(havePostgres)(
    'a call killed inside its tool is tried again with the same idempotency key',
    async () => {
      const { executor, runId, file, block } = fresh('inside')
      const env = { MODEL_URL: `${openai.url}/v1`, EXECUTOR_ID: executor, SIDE_EFFECTS: file, BLOCK: block }
      const order = `${runId}-order`
      writeFileSync(block, '')
      const first = await worker(env)
      void first.run({ runId, prompt: order })
      await waitFor(() => sideEffects(file).length === 1, 'the tool to start')
      await first.kill()
      rmSync(block)
      const second = await worker(env)
      expect((await second.run({ runId, prompt: order })).status).toBe('done')
      const key = `${runId}:1:1`
      expect(sideEffects(file)).toStrictEqual([
        `attempt ${key} ${order}`,
        `attempt ${key} ${order}`,
        `done ${key} ${order}`,
      ])
    },
    300_000,
  )

  it.runIf(havePostgres)(
    'three workers on one Postgres, one killed midway: every run finishes, each refund once',
    async () => {
      const ids = ['a', 'b', 'c'].map((name) => fresh(`three-${name}`))
      const file = ids[0]?.file ?? ''
      const runsOf = (index: number) =>
        [0, 1].map((n) => ({ runId: `${ids[index]?.runId}-${n}`, prompt: `${ids[index]?.runId}-${n}-order` }))
      const envOf = (index: number) => ({
        MODEL_URL: `${openai.url}/v1`,
        EXECUTOR_ID: ids[index]?.executor ?? '',
        SIDE_EFFECTS: file,
      })
      const killedRuns = runsOf(1)
      for (const run of killedRuns) hang.add(run.prompt)
      const started = await Promise.all([0, 1, 2].map((index) => worker(envOf(index))))
      const finished = [0, 2].flatMap((index) => runsOf(index).map((run) => started[index]?.run(run)))
      for (const run of killedRuns) void started[1]?.run(run)
      await waitFor(
        () => killedRuns.every((run) => sawToolResult(run.prompt)),
        'the killed worker’s tool steps',
      )
      await started[1]?.kill()
      hang.clear()
      const restarted = await worker(envOf(1))
      const results = await Promise.all([...finished, ...killedRuns.map((run) => restarted.run(run))])
      const all = [...[0, 2].flatMap(runsOf), ...killedRuns]
      expect(results).toStrictEqual(
        all.map((run) => ({
          runId: run.runId,
          status: 'done',
          text: `refunded ${run.prompt}`,
          calls: [`refunded ${run.prompt}`],
        })),
      )
      const done = sideEffects(file).filter((line) => line.startsWith('done '))
      expect(done.map((line) => line.split(' ')[2]).sort()).toStrictEqual(all.map((run) => run.prompt).sort())
    },
    420_000,
  )
})
