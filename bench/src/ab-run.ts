// A/B in one process: two implementations, the same endpoint, batches alternating A-B / B-A, so both see the
// same machine, the same moment and the same JIT-warm Node — what the full bench does for its target ratios,
// here in one process for a quick look. Both warm up first, taking turns of 100 runs.
//
//   node dist/ab-run.js <implementation A> <implementation B> [native|mcp] [rounds=60] [batch=20] [warm-up=2000]

import { performance } from 'node:perf_hooks'
import { startLocalBench } from './harness/in-process.js'
import { median } from './harness/stats.js'
import { timedRun } from './harness/timed-run.js'
import { implementationById } from './impls/registry.js'
import type { BenchInstance } from './impls/types.js'

const [first = 'toolnexus-ai-sdk', second = 'floor-do-generate', variantArgument = 'native', ...rest] =
  process.argv.slice(2)
const rounds = Number(rest[0] ?? 60)
const batchSize = Number(rest[1] ?? 20)
const warmup = Number(rest[2] ?? 2000)
implementationById(first)
implementationById(second)

const local = await startLocalBench(variantArgument === 'mcp' ? 'mcp' : 'native', 'ab-endpoint')
const options = local.options
const a = await local.load(first)
const b = await local.load(second)

async function batch(instance: BenchInstance, count: number): Promise<{ wall: number; cpu: number }> {
  const cpuStart = process.cpuUsage()
  const start = performance.now()
  for (let index = 0; index < count; index++) await timedRun(instance)
  const cpu = process.cpuUsage(cpuStart)
  return { wall: (performance.now() - start) / count, cpu: (cpu.user + cpu.system) / 1000 / count }
}

for (let turn = 0; turn < warmup / 100; turn++) {
  await batch(a, 100)
  await batch(b, 100)
}
const results: Array<{ a: { wall: number; cpu: number }; b: { wall: number; cpu: number } }> = []
for (let round = 0; round < rounds; round++) {
  if (round % 2 === 0) {
    const resultA = await batch(a, batchSize)
    results.push({ a: resultA, b: await batch(b, batchSize) })
  } else {
    const resultB = await batch(b, batchSize)
    results.push({ a: await batch(a, batchSize), b: resultB })
  }
}
const line = (metric: 'wall' | 'cpu'): string => {
  const valueA = median(results.map((result) => result.a[metric]))
  const valueB = median(results.map((result) => result.b[metric]))
  const ratio = median(results.map((result) => result.a[metric] / result.b[metric]))
  return `${metric === 'wall' ? 'wall' : 'CPU '} ${valueA.toFixed(3)} vs ${valueB.toFixed(3)} ms/run, ratio ${ratio.toFixed(2)}×, Δ ${(valueA - valueB).toFixed(3)} ms/run`
}
process.stdout.write(`${first} vs ${second} (${options.variant}, ${rounds} rounds × ${batchSize} runs)\n`)
process.stdout.write(`  ${line('wall')}\n  ${line('cpu')}\n`)
await a.close()
await b.close()
await local.stop()
process.exit(0)
