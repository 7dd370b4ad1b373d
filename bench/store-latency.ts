// What a database store adds to `ask`, measured side by side in one process: the same in-process model
// (no network, one tool call and an answer per ask), the same tool, three stores:
//
//   memory    new InMemoryConversationStore()
//   redis     createRedisStore({ url }) on a redis-server this script starts on a loopback port
//   postgres  createPostgresStore({ connectionString }) on a cluster this script makes and starts
//
// Rounds rotate memory-redis-postgres so every store sees the same machine and moment. Each ask continues
// one of 20 conversations per store (seeded with 20 messages; they grow by 2 per ask), so every load and
// save carries a realistic transcript. Prints, per store, the median and p95 of the whole ask and of its
// load and save, and what Redis and Postgres add over memory. Run from the repository root:
//
//   npx tsx bench/store-latency.ts [--rounds 300] [--warmup 30]

import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import type { ModelMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { createClient } from '../src/client/create-client.js'
import type { ConversationStore } from '../src/stores/conversation-store.js'
import { InMemoryConversationStore } from '../src/stores/in-memory-conversation-store.js'
import { createPostgresStore } from '../src/stores/postgres-store.js'
import { createRedisStore } from '../src/stores/redis-store.js'
import { defineTool } from '../src/tool/define-tool.js'
import { createToolkit } from '../src/toolkit/create-toolkit.js'
import { sampleMessages } from '../test/stores/store-conformance.js'
import { startPostgresServer } from '../test/support/postgres-server.js'
import { startRedisServer } from '../test/support/redis-server.js'

const args = process.argv.slice(2)
const option = (name: string, fallback: string): number => {
  const index = args.indexOf(`--${name}`)
  return Number(index === -1 ? fallback : (args[index + 1] ?? fallback))
}
const rounds = option('rounds', '300')
const warmup = option('warmup', '30')
const CONVERSATIONS = 20

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
}

/** Turn 1: one tool call; turn 2: the answer. Decided from the prompt, so any conversation works. */
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
              {
                type: 'tool-call',
                toolCallId: `call_${prompt.length}`,
                toolName: 'get_weather',
                input: '{"city":"Oslo"}',
              },
            ],
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
          },
  })
}

/** Times the store's own calls, so the report can split an ask into load, loop and save. */
function timed(store: ConversationStore<ModelMessage>, times: { load: number[]; save: number[] }) {
  return {
    load: async (id: string) => {
      const start = performance.now()
      const loaded = await store.load(id)
      times.load.push(performance.now() - start)
      return loaded
    },
    save: async (...saveArgs: Parameters<ConversationStore<ModelMessage>['save']>) => {
      const start = performance.now()
      const saved = await store.save(...saveArgs)
      times.save.push(performance.now() - start)
      return saved
    },
    delete: (id: string) => store.delete(id),
  } satisfies ConversationStore<ModelMessage>
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((left, right) => left - right)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
}

const weather = defineTool({
  name: 'get_weather',
  description: 'Weather for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }: { city: string }) => ({ city, temperature: '12°C' }),
})

const redisServer = await startRedisServer()
const postgresServer = await startPostgresServer()
try {
  const toolkit = await createToolkit({ tools: [weather] })
  const redis = createRedisStore({ url: redisServer.url })
  const postgres = createPostgresStore({ connectionString: postgresServer.connectionString })
  const contenders = [
    {
      name: 'memory',
      store: new InMemoryConversationStore<ModelMessage>() as ConversationStore<ModelMessage>,
    },
    { name: 'redis', store: redis as ConversationStore<ModelMessage> },
    { name: 'postgres', store: postgres as ConversationStore<ModelMessage> },
  ].map((contender) => {
    const times = { ask: [] as number[], load: [] as number[], save: [] as number[] }
    const client = createClient({ model: scriptedModel(), store: timed(contender.store, times) })
    return { ...contender, times, client }
  })
  const seed = [
    ...sampleMessages('a'),
    ...sampleMessages('b'),
    ...sampleMessages('c'),
    ...sampleMessages('d'),
    ...sampleMessages('e'),
  ]
  for (const { store } of contenders) {
    for (let index = 0; index < CONVERSATIONS; index++) {
      await store.delete(`bench-${index}`)
      await store.save(`bench-${index}`, { messages: seed }, 0)
    }
  }

  for (let round = -warmup; round < rounds; round++) {
    const id = `bench-${((round % CONVERSATIONS) + CONVERSATIONS) % CONVERSATIONS}`
    for (const contender of contenders) {
      const start = performance.now()
      await contender.client.ask('And tomorrow?', { id, toolkit })
      const elapsed = performance.now() - start
      if (round < 0) {
        contender.times.load.pop()
        contender.times.save.pop()
      } else contender.times.ask.push(elapsed)
    }
  }

  const memory = contenders[0]
  const row = (label: string, values: string[]) =>
    `${label.padEnd(22)}${values.map((value) => value.padStart(12)).join('')}`
  const ms = (value: number) => `${value.toFixed(3)} ms`
  console.log(
    `ask latency by store: ${rounds} asks each (after ${warmup} warm-up), ${CONVERSATIONS} conversations of 20→${20 + (2 * (rounds + warmup)) / CONVERSATIONS} messages`,
  )
  console.log(
    `node ${process.version}, load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')} on this machine\n`,
  )
  console.log(
    row(
      '',
      contenders.map((contender) => contender.name),
    ),
  )
  for (const [label, pick] of [
    ['ask median', (times: (typeof contenders)[number]['times']) => quantile(times.ask, 0.5)],
    ['ask p95', (times: (typeof contenders)[number]['times']) => quantile(times.ask, 0.95)],
    ['  load median', (times: (typeof contenders)[number]['times']) => quantile(times.load, 0.5)],
    ['  load p95', (times: (typeof contenders)[number]['times']) => quantile(times.load, 0.95)],
    ['  save median', (times: (typeof contenders)[number]['times']) => quantile(times.save, 0.5)],
    ['  save p95', (times: (typeof contenders)[number]['times']) => quantile(times.save, 0.95)],
  ] as const) {
    console.log(
      row(
        label,
        contenders.map((contender) => ms(pick(contender.times))),
      ),
    )
  }
  if (memory !== undefined) {
    console.log('')
    for (const [label, q] of [
      ['added, median', 0.5],
      ['added, p95', 0.95],
    ] as const) {
      console.log(
        row(
          label,
          contenders.map((contender) => ms(quantile(contender.times.ask, q) - quantile(memory.times.ask, q))),
        ),
      )
    }
  }
  await redis.close()
  await postgres.close()
} finally {
  await redisServer.stop()
  await postgresServer.stop()
}
