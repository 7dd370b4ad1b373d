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
import { pathToFileURL } from 'node:url'
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { benchOption, benchToolkit, type Contender, runSideBySide, scriptedModel } from './side-by-side.js'

type Library = typeof import('../src/index.js')

const rounds = Number(benchOption('rounds', '40'))
const batchSize = Number(benchOption('batch', '50'))
const baselineDir = benchOption('baseline', '')

async function clientsOf(library: Library, telemetry: Array<['off' | 'no-op' | 'sdk', object | undefined]>) {
  const toolkit = await benchToolkit(library)
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
const contenders: Contender[] = await clientsOf(library, [
  ['off', undefined],
  ['no-op', {}],
  ['sdk', { tracer: tracerProvider.getTracer('bench'), meter: meterProvider.getMeter('bench') }],
])
if (baselineDir !== '') {
  const baseline: Library = await import(pathToFileURL(resolve(baselineDir, 'index.ts')).href)
  const [off] = await clientsOf(baseline, [['off', undefined]])
  if (off !== undefined) contenders.push({ name: 'baseline off', run: off.run })
}

await runSideBySide({
  title: 'telemetry overhead',
  contenders,
  rounds,
  batchSize,
  // The SDK contender's spans are dropped after each of its batches, so memory stays flat.
  afterBatch: (index) => {
    if (index === 2) spans.reset()
  },
})
await tracerProvider.shutdown()
await meterProvider.shutdown()
process.exit(0)
