// What telemetry costs the loop, measured side by side in one process: the same in-process model (no
// network, so the loop's own work is all there is to see), the same two tools, three clients:
//
//   off       createClient({ model })                                  — what every run without telemetry does
//   no-op     createClient({ model, telemetry: {} }) with no SDK registered: the API's non-recording spans
//   sdk       createClient({ model, telemetry: { tracer, meter } }) on the real SDK, spans kept in memory
//
// With `--baseline <dir>` a fourth client runs the loop from another copy of `src/` with telemetry off, to
// show the off path is unchanged. Put the copy inside the repository, so its imports resolve:
//   mkdir -p node_modules/.cache/main && git archive main src | tar -x -C node_modules/.cache/main
//
// Batches rotate A-B-C(-D) so every client sees the same machine and moment; the figures are medians of
// per-round ratios against `off`, CPU and wall. Run from the repository root:
//
//   npx tsx bench/telemetry-overhead.ts [--rounds 40] [--batch 50] [--baseline node_modules/.cache/main/src]

import { resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'

type Library = typeof import('../src/index.js')

const args = process.argv.slice(2)
const option = (name: string, fallback: string): string => {
  const index = args.indexOf(`--${name}`)
  return index === -1 ? fallback : (args[index + 1] ?? fallback)
}
const rounds = Number(option('rounds', '40'))
const batchSize = Number(option('batch', '50'))
const baselineDir = option('baseline', '')

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
}

/** A spec-v3 model answering turn 1 with two tool calls and turn 2 with text, forever. */
function scriptedModel() {
  return {
    specificationVersion: 'v3' as const,
    provider: 'bench.chat',
    modelId: 'bench-model',
    supportedUrls: {},
    async doGenerate(options: { prompt: Array<{ role: string }> }) {
      const answered = options.prompt.some((message) => message.role === 'tool')
      return answered
        ? {
            content: [{ type: 'text', text: 'Done.' }],
            finishReason: { unified: 'stop', raw: 'stop' },
            usage,
            warnings: [],
          }
        : {
            content: [
              { type: 'tool-call', toolCallId: 'call-1', toolName: 'add', input: '{"a":1,"b":2}' },
              { type: 'tool-call', toolCallId: 'call-2', toolName: 'echo', input: '{"text":"hi"}' },
            ],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage,
            warnings: [],
          }
    },
    doStream() {
      throw new Error('not used')
    },
  }
}

async function clientsOf(library: Library, telemetry: Array<['off' | 'no-op' | 'sdk', object | undefined]>) {
  const toolkit = await library.createToolkit({
    tools: [
      library.defineTool({
        name: 'add',
        description: 'Adds.',
        inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
        execute: ({ a, b }) => String(Number(a) + Number(b)),
      }),
      library.defineTool({
        name: 'echo',
        description: 'Echoes.',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
        execute: ({ text }) => String(text),
      }),
    ],
  })
  return telemetry.map(([name, options]) => {
    const client = library.createClient({
      model: scriptedModel() as never,
      ...(options === undefined ? {} : { telemetry: options }),
    })
    return { name, run: () => client.run('Add and echo.', { toolkit }) }
  })
}

const library: Library = await import('../src/index.js')
const spans = new InMemorySpanExporter()
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] })
const meterProvider = new MeterProvider({
  readers: [
    new PeriodicExportingMetricReader({
      exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
      exportIntervalMillis: 3_600_000,
    }),
  ],
})
const contenders: Array<{ name: string; run: () => Promise<unknown> }> = await clientsOf(library, [
  ['off', undefined],
  ['no-op', {}],
  ['sdk', { tracer: tracerProvider.getTracer('bench'), meter: meterProvider.getMeter('bench') }],
])
if (baselineDir !== '') {
  const baseline: Library = await import(pathToFileURL(resolve(baselineDir, 'index.ts')).href)
  const [off] = await clientsOf(baseline, [['off', undefined]])
  if (off !== undefined) contenders.push({ name: 'baseline off', run: off.run })
}

async function batch(run: () => Promise<unknown>, count: number): Promise<{ wall: number; cpu: number }> {
  const cpuStart = process.cpuUsage()
  const start = performance.now()
  for (let index = 0; index < count; index++) await run()
  const cpu = process.cpuUsage(cpuStart)
  return { wall: ((performance.now() - start) * 1000) / count, cpu: (cpu.user + cpu.system) / count }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

for (let warm = 0; warm < 10; warm++) for (const contender of contenders) await batch(contender.run, 100)
spans.reset()
const results = contenders.map(() => [] as Array<{ wall: number; cpu: number }>)
for (let round = 0; round < rounds; round++) {
  // Rotate the order each round, so no contender always runs first (or right after the garbage-heavy one).
  for (let step = 0; step < contenders.length; step++) {
    const index = (round + step) % contenders.length
    results[index]?.push(await batch((contenders[index] as (typeof contenders)[number]).run, batchSize))
    if (index === 2) spans.reset()
  }
}

const off = results[0] as Array<{ wall: number; cpu: number }>
process.stdout.write(
  `telemetry overhead: ${rounds} rounds × ${batchSize} runs (2 model calls, 2 tool calls each), medians\n`,
)
for (const [index, contender] of contenders.entries()) {
  const own = results[index] as Array<{ wall: number; cpu: number }>
  const ratio = (metric: 'wall' | 'cpu') =>
    median(own.map((value, round) => value[metric] / (off[round] as { wall: number; cpu: number })[metric]))
  process.stdout.write(
    `  ${contender.name.padEnd(13)} CPU ${median(own.map((value) => value.cpu))
      .toFixed(1)
      .padStart(7)} µs/run (${ratio('cpu').toFixed(2)}× off)   wall ${median(own.map((value) => value.wall))
      .toFixed(1)
      .padStart(7)} µs/run (${ratio('wall').toFixed(2)}× off)\n`,
  )
}
await tracerProvider.shutdown()
await meterProvider.shutdown()
process.exit(0)
