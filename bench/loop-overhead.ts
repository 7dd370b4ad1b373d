// What the loop costs against a bare loop over the same model's `doGenerate`, measured side by side in one
// process: the real `@ai-sdk/openai` provider over an in-memory `fetch` that plays the bench's scripted
// Chat Completions endpoint (no network, no other process), the bench's two tools (`get_weather`,
// `get_time`), one question → two parallel tool calls → the answer.
//
//   sequential   runs one after another, batches rotating (`runSideBySide`)
//   concurrent   `--concurrency` runs at once (100 by default), the two loops taking turns round after
//                round; the figure is toolnexus's throughput over the bare loop's, the median of the
//                per-round ratios, with the share of each loop's time spent in garbage collection
//   allocation   bytes each run allocates, heap used before and after batches of runs with no collection
//                in between (the script starts itself again with `--expose-gc` and a young generation
//                large enough for a batch); then what each run holds while it waits on a model call
//   retained     that last figure alone: 1,000 runs each held at its second model call, the heap
//                collected and measured
//
// Run from the repository root:
//
//   npx tsx bench/loop-overhead.ts [--rounds 30] [--batch 50] [--warmup 5000] [--concurrency 100] [--waves 5]
//     [--only sequential|concurrent|allocation|retained] [--library dist | node_modules/.cache/main/src]
//
// The header names the library measured. Quote the figures of `--library dist` (after `npm run build`):
// from `src/`, tsx wraps every closure of toolnexus in `__name(...)`, which the built package does not do.

import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { loadavg } from 'node:os'
import { relative, resolve } from 'node:path'
import { PerformanceObserver, performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { createOpenAI } from '@ai-sdk/openai'
import { benchOption, type Contender, runSideBySide } from './side-by-side.js'
import { type OpenAIRequest, openAIReply } from './src/endpoint/scripted-model.js'
import { bareDoGenerateRun } from './src/impls/floor-do-generate.js'
import {
  CITY_JSON_SCHEMA,
  cityOf,
  EXPECTED_ANSWER,
  getTime,
  getWeather,
  MODEL_ID,
  PROMPT,
  SYSTEM,
  TIME_TOOL,
  WEATHER_TOOL,
} from './src/scenario.js'

type Library = typeof import('../src/index.js')

const rounds = Number(benchOption('rounds', '30'))
const batchSize = Number(benchOption('batch', '50'))
const concurrency = Number(benchOption('concurrency', '100'))
const waves = Number(benchOption('waves', '5'))
const only = benchOption('only', '')
// Runs each loop takes before the sequential figure is measured (V8 optimizes a function after enough
// calls: a loop whose code is spread over more functions reaches its steady state later).
const warmup = Number(benchOption('warmup', '5000'))
// Another copy of `src/` (inside the repository, so its imports resolve), to measure a baseline:
//   mkdir -p node_modules/.cache/main && git archive main src | tar -x -C node_modules/.cache/main
const libraryDir = benchOption('library', '')

let sequence = 0
// While set, each run's second model call (the one after its tools answered) waits here: see `retained`.
let held: { gate: Promise<void>; parked: number } | undefined
/** A `fetch` that answers Chat Completions requests in memory, by the bench's script. */
async function scriptedFetch(_url: unknown, init?: { body?: unknown }): Promise<Response> {
  const request = JSON.parse(String(init?.body)) as OpenAIRequest
  if (held !== undefined && request.messages?.some((message) => message.role === 'tool')) {
    held.parked++
    await held.gate
  }
  const reply = openAIReply(request, ++sequence)
  if (reply.kind !== 'json' || reply.failed) throw new Error(`bench: bad exchange ${JSON.stringify(reply)}`)
  return new Response(JSON.stringify(reply.body), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  })
}

function model() {
  return createOpenAI({ apiKey: 'bench', fetch: scriptedFetch as typeof fetch }).chat(MODEL_ID)
}

function toolOutput(name: string, args: unknown): string {
  const city = cityOf(args)
  return JSON.stringify(name === WEATHER_TOOL.name ? getWeather(city) : getTime(city))
}

type CallOptions = Parameters<ReturnType<typeof model>['doGenerate']>[0]

/** The floor: `npm run bench`'s bare `doGenerate` loop, over this model and the tools called in process. */
function bareLoop(): Contender {
  const chat = model()
  const tools: NonNullable<CallOptions['tools']> = [WEATHER_TOOL, TIME_TOOL].map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    inputSchema: CITY_JSON_SCHEMA as never,
  }))
  const callTool = async (name: string, args: unknown) => toolOutput(name, args)
  return {
    name: 'bare doGenerate loop',
    // Checked as toolnexus's run is below, in the same shape, so the two pay the same for the check.
    async run() {
      const text = await bareDoGenerateRun(chat, tools, callTool)
      if (text !== EXPECTED_ANSWER) throw new Error(`bench: unexpected answer ${JSON.stringify(text)}`)
      return text
    },
  }
}

async function toolnexusLoop(library: Library): Promise<Contender> {
  const toolkit = await library.createToolkit({
    tools: [WEATHER_TOOL, TIME_TOOL].map((tool) =>
      library.defineTool({
        ...tool,
        inputSchema: CITY_JSON_SCHEMA,
        execute: (args) => toolOutput(tool.name, args),
      }),
    ),
  })
  const client = library.createClient({ model: model() as never, system: SYSTEM })
  return {
    name: 'toolnexus',
    async run() {
      const result = await client.run(PROMPT, { toolkit })
      if (result.text !== EXPECTED_ANSWER || result.toolCalls.length !== 2) {
        throw new Error(`bench: unexpected answer ${JSON.stringify(result.text)}`)
      }
      return result
    },
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

// Garbage collections as the process saw them (start and duration, ms), to share out among the loops.
const collections: Array<{ start: number; duration: number }> = []
const gcObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    collections.push({ start: entry.startTime, duration: entry.duration })
})

/** Runs per second for `waves` waves of `concurrency` runs started at once, and the time window. */
async function throughput(contender: Contender): Promise<{ rate: number; start: number; end: number }> {
  const start = performance.now()
  for (let wave = 0; wave < waves; wave++) {
    await Promise.all(Array.from({ length: concurrency }, () => contender.run()))
  }
  const end = performance.now()
  return { rate: (waves * concurrency * 1000) / (end - start), start, end }
}

/** The share of these windows' time spent in garbage collection. */
function gcShare(windows: ReadonlyArray<{ start: number; end: number }>): number {
  let total = 0
  let collecting = 0
  for (const { start, end } of windows) {
    total += end - start
    for (const gc of collections) if (gc.start >= start && gc.start < end) collecting += gc.duration
  }
  return collecting / total
}

async function concurrentSideBySide(contenders: readonly Contender[]): Promise<void> {
  for (let warm = 0; warm < 5; warm++) for (const contender of contenders) await throughput(contender)
  gcObserver.observe({ entryTypes: ['gc'] })
  const measured = contenders.map(() => [] as Array<{ rate: number; start: number; end: number }>)
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < contenders.length; step++) {
      const index = (round + step) % contenders.length
      measured[index]?.push(await throughput(contenders[index] as Contender))
    }
  }
  // The last collections' entries arrive on a later tick.
  await new Promise((done) => setTimeout(done, 50))
  gcObserver.disconnect()
  const results = measured.map((windows) => windows.map((window) => window.rate))
  const reference = results[0] as number[]
  process.stdout.write(
    `loop overhead, ${concurrency} runs at once: ${rounds} rounds × ${waves} waves, medians\n`,
  )
  for (const [index, contender] of contenders.entries()) {
    const own = results[index] as number[]
    const ratio = median(own.map((value, round) => value / (reference[round] as number))).toFixed(2)
    process.stdout.write(
      `  ${contender.name.padEnd(22)} ${median(own).toFixed(0).padStart(6)} runs/s (${ratio}× ${contenders[0]?.name}), ${(100 * gcShare(measured[index] ?? [])).toFixed(1)} % of the time in GC\n`,
    )
  }
}

const ALLOCATION_FLAGS = ['--expose-gc', '--min-semi-space-size=64', '--max-semi-space-size=64']

/**
 * Bytes each run allocates: after a full collection, a batch of runs one after another fits in the young
 * generation, so the heap grows by what the batch allocated. The median over `rounds` batches, the
 * contenders taking turns.
 */
async function allocationSideBySide(contenders: readonly Contender[]): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc as () => void
  const runs = 50
  for (let warm = 0; warm < 10; warm++) {
    for (const contender of contenders) for (let run = 0; run < 100; run++) await contender.run()
  }
  const results = contenders.map(() => [] as number[])
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < contenders.length; step++) {
      const index = (round + step) % contenders.length
      const contender = contenders[index] as Contender
      gc()
      const before = process.memoryUsage().heapUsed
      for (let run = 0; run < runs; run++) await contender.run()
      results[index]?.push((process.memoryUsage().heapUsed - before) / runs)
    }
  }
  process.stdout.write(`loop allocation: ${rounds} batches × ${runs} runs one after another, medians\n`)
  const reference = median(results[0] as number[])
  for (const [index, contender] of contenders.entries()) {
    const own = median(results[index] as number[])
    process.stdout.write(
      `  ${contender.name.padEnd(22)} ${(own / 1024).toFixed(1).padStart(7)} KB/run (${(own / reference).toFixed(2)}× ${contenders[0]?.name})\n`,
    )
  }
}

/**
 * Bytes a run holds while it waits on a model call: `waiting` runs are started and each is held at its
 * second model call (its tools have answered), then the heap is collected and measured against before.
 * Over a network a run spends most of its life there, so this is what many runs at once keep alive. The
 * median over `rounds` waves, the contenders taking turns.
 */
async function retainedSideBySide(contenders: readonly Contender[]): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc as () => void
  const waiting = 1000
  const wave = async (contender: Contender): Promise<number> => {
    let release = (): void => undefined
    held = { gate: new Promise<void>((resolve) => (release = resolve)), parked: 0 }
    gc()
    const before = process.memoryUsage().heapUsed
    const runs = Array.from({ length: waiting }, () => contender.run())
    while (held.parked < waiting) await new Promise((resolve) => setTimeout(resolve, 1))
    gc()
    const bytes = (process.memoryUsage().heapUsed - before) / waiting
    held = undefined
    release()
    await Promise.all(runs)
    return bytes
  }
  for (const contender of contenders) await wave(contender)
  const results = contenders.map(() => [] as number[])
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < contenders.length; step++) {
      const index = (round + step) % contenders.length
      results[index]?.push(await wave(contenders[index] as Contender))
    }
  }
  process.stdout.write(
    `loop retained: ${rounds} waves of ${waiting} runs, each held at its second model call, medians\n`,
  )
  const reference = median(results[0] as number[])
  for (const [index, contender] of contenders.entries()) {
    const own = median(results[index] as number[])
    process.stdout.write(
      `  ${contender.name.padEnd(22)} ${(own / 1024).toFixed(1).padStart(7)} KB/run (${(own / reference).toFixed(2)}× ${contenders[0]?.name})\n`,
    )
  }
}

/**
 * Which toolnexus the figures are of. TypeScript is loaded through tsx, whose esbuild transform (with
 * `keepNames`) wraps every closure in `__name(...)`: toolnexus's per-run cost is inflated there, while the
 * bare loop (the provider, already JavaScript) is not. The figures to quote are the built JavaScript's.
 */
function libraryLabel(entry: string | undefined): string {
  if (entry === undefined)
    return 'src/ through tsx (closures wrapped by __name: quote --library dist instead)'
  const shown = relative(process.cwd(), entry) || entry
  return entry.endsWith('.js')
    ? `${shown} (built JavaScript, as an app runs it)`
    : `${shown} through tsx (closures wrapped by __name: quote a built copy instead)`
}

/** The allocation figures, from this script started again with the flags they need. */
function allocationInChild(): void {
  const args = process.argv.slice(2)
  const onlyAt = args.indexOf('--only')
  if (onlyAt !== -1) args.splice(onlyAt, 2)
  const child = spawnSync(
    process.execPath,
    [
      ...process.execArgv,
      ...ALLOCATION_FLAGS,
      process.argv[1] as string,
      ...args,
      '--only',
      only === 'retained' ? 'retained' : 'allocation',
    ],
    { stdio: 'inherit' },
  )
  if (child.status !== 0) throw new Error(`bench: the allocation run failed (${child.status})`)
}

const libraryEntry =
  libraryDir === ''
    ? undefined
    : resolve(libraryDir, existsSync(resolve(libraryDir, 'index.js')) ? 'index.js' : 'index.ts')
const library: Library =
  libraryEntry === undefined
    ? await import('../src/index.js')
    : await import(pathToFileURL(libraryEntry).href)
process.stdout.write(`library: ${libraryLabel(libraryEntry)}\n`)
const contenders = [bareLoop(), await toolnexusLoop(library)]
process.stdout.write(
  `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}\n`,
)
if (only === '' || only === 'sequential') {
  await runSideBySide({ title: 'loop overhead, sequential', contenders, rounds, batchSize, warmup })
}
if (only === '' || only === 'concurrent') await concurrentSideBySide(contenders)
if (only === '' || only === 'allocation' || only === 'retained') {
  if (typeof (globalThis as { gc?: unknown }).gc !== 'function') allocationInChild()
  else {
    if (only !== 'retained') await allocationSideBySide(contenders)
    await retainedSideBySide(contenders)
  }
}
process.stdout.write(
  `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}\n`,
)
process.exit(0)
