// What a durable run costs, on a local Postgres this script makes and starts:
//
//   per step       the same run (model call → one tool call → model call: three steps) with a plain
//                  client and with `createClient({ durable })` on toolnexus/dbos, side by side in one
//                  process, rounds alternating; an in-process model (no network), so the difference is
//                  what recording the run adds. Prints the medians and (durable − plain) / 3 per step,
//                  beside the floor: a bare DBOS workflow of three empty steps (what DBOS itself costs).
//   kill → finish  a worker process (test/durable/fixtures/durable-worker.ts) SIGKILLed right after its
//                  tool step, a new worker with the same executor id launched at once: the time from
//                  the kill to the run's result on the new worker (process start and DBOS launch included).
//
// Run from the repository root (also the last part of `npm run bench`):
//
//   npx tsx bench/durable-overhead.ts [--rounds 200] [--warmup 20] [--kills 3]

import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { DBOS } from '@dbos-inc/dbos-sdk'
import { MockLanguageModelV3 } from 'ai/test'
import { createClient } from '../src/client/create-client.js'
import { createDbosRunner } from '../src/dbos/create-dbos-runner.js'
import { defineTool } from '../src/tool/define-tool.js'
import { createToolkit } from '../src/toolkit/create-toolkit.js'
import { sideEffects, startDurableWorker, waitFor } from '../test/durable/durable-worker-harness.js'
import { type HangGate, openaiRefundScript } from '../test/durable/fixtures/refund-models.js'
import { startPostgresServer } from '../test/support/postgres-server.js'
import { openaiChatProtocol } from '../test/support/scripted-openai.js'
import { startScriptedServer } from '../test/support/scripted-server.js'

const args = process.argv.slice(2)
const option = (name: string, fallback: string): number => {
  const index = args.indexOf(`--${name}`)
  return Number(index === -1 ? fallback : (args[index + 1] ?? fallback))
}
const rounds = option('rounds', '200')
const warmup = option('warmup', '20')
const kills = option('kills', '3')
const STEPS = 3

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
}

/** Turn 1: one tool call; turn 2: the answer. */
function scriptedModel() {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) =>
      prompt.at(-1)?.role === 'tool'
        ? {
            content: [{ type: 'text', text: 'It is 12 °C.' }],
            finishReason: { unified: 'stop', raw: undefined },
            usage,
            warnings: [],
          }
        : {
            content: [
              { type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: '{"city":"Oslo"}' },
            ],
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
          },
  })
}

const weather = defineTool({
  name: 'get_weather',
  description: 'Weather for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }: { city: string }) => ({ city, temperature: '12°C' }),
})

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

const postgres = await startPostgresServer()
const dir = mkdtempSync(join(tmpdir(), 'toolnexus-durable-bench-'))
try {
  const load = loadavg()[0]?.toFixed(2)
  const toolkit = await createToolkit({ tools: [weather] })
  // Registered before the runner launches DBOS, as DBOS wants.
  const floor = DBOS.registerWorkflow(
    async () => {
      for (let step = 0; step < STEPS; step++) await DBOS.runStep(async () => step, { name: `step ${step}` })
      return 'done'
    },
    { name: 'bench-floor' },
  )
  const durable = await createDbosRunner({
    connectionString: postgres.connectionString,
    appVersion: 'bench',
    executorId: 'bench-in-process',
  })
  const plain = createClient({ model: scriptedModel() })
  const recorded = createClient({ model: scriptedModel(), durable })
  const times = { plain: [] as number[], durable: [] as number[], floor: [] as number[] }
  for (let round = -warmup; round < rounds; round++) {
    const kinds = ['plain', 'durable', 'floor'] as const
    // Rotated, so that each sees every position in the round.
    const order = kinds.map(
      (_, index) => kinds[(index + round + warmup) % kinds.length] as (typeof kinds)[number],
    )
    for (const kind of order) {
      const runId = `bench-${round}-${kind}`
      const start = performance.now()
      if (kind === 'floor') {
        await (await DBOS.startWorkflow(floor, { workflowID: runId })()).getResult()
      } else {
        const client = kind === 'plain' ? plain : recorded
        const result = await client.run('Weather in Oslo?', { toolkit, runId })
        if (result.text !== 'It is 12 °C.') throw new Error(`unexpected answer: ${result.text}`)
      }
      const elapsed = performance.now() - start
      if (round >= 0) times[kind].push(elapsed)
    }
  }
  await durable.close()
  const plainMs = median(times.plain)
  const durableMs = median(times.durable)
  const floorMs = median(times.floor)
  const perStep = (durableMs - plainMs) / STEPS
  console.log(`durable runs on a local Postgres (${rounds} rounds; 1-minute load average ${load})`)
  console.log(`  plain run          median ${plainMs.toFixed(3)} ms`)
  console.log(`  durable run        median ${durableMs.toFixed(3)} ms (${STEPS} steps)`)
  console.log(
    `  DBOS floor         median ${floorMs.toFixed(3)} ms (a bare workflow of ${STEPS} empty steps)`,
  )
  console.log(
    `  per step           ${perStep.toFixed(2)} ms   (target ≤ 5 ms): ${perStep <= 5 ? 'ok' : 'OVER'}`,
  )
  console.log(
    `  durable / floor    ${(durableMs / floorMs).toFixed(2)}×   (toolnexus's own part per step ${((durableMs - plainMs - floorMs) / STEPS).toFixed(2)} ms)`,
  )

  // Kill → finish, with worker processes over a scripted OpenAI endpoint.
  const hang: HangGate = new Set()
  const model = await startScriptedServer({ protocol: openaiChatProtocol, script: openaiRefundScript(hang) })
  const recoveries: number[] = []
  try {
    for (let kill = 0; kill < kills; kill++) {
      const env = {
        DATABASE_URL: postgres.connectionString,
        MODEL_URL: `${model.url}/v1`,
        EXECUTOR_ID: `bench-worker-${kill}`,
        SIDE_EFFECTS: join(dir, `kill-${kill}.log`),
      }
      const runId = `bench-kill-${kill}`
      const order = `${runId}-order`
      hang.add(order)
      const first = await startDurableWorker(env)
      void first.run({ runId, prompt: order })
      await waitFor(
        () =>
          model.requests.some(
            (request) =>
              request.body?.messages?.at(-1)?.role === 'tool' && JSON.stringify(request.body).includes(order),
          ),
        'the model call after the tool',
      )
      const killedAt = performance.now()
      await first.kill()
      hang.delete(order)
      const second = await startDurableWorker(env)
      const result = await second.run({ runId, prompt: order })
      recoveries.push(performance.now() - killedAt)
      await second.kill()
      const done = sideEffects(env.SIDE_EFFECTS).filter((line) => line.startsWith('done '))
      if (result.status !== 'done' || done.length !== 1) {
        throw new Error(`the resumed run went wrong: ${JSON.stringify(result)}, ${done.length} refunds`)
      }
    }
  } finally {
    await model.close()
  }
  console.log(
    `  kill → finish      median ${median(recoveries).toFixed(0)} ms over ${kills} kills (new worker's start and DBOS launch included; each: ${recoveries.map((ms) => ms.toFixed(0)).join(', ')} ms)`,
  )
} finally {
  await postgres.stop()
  rmSync(dir, { recursive: true, force: true })
}
