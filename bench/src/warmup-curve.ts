// How a run's time depends on the process's history, for one implementation in a fresh process against
// the scripted endpoint:
// - warm-up: V8 compiles the code a run touches in tiers, so the first runs cost several times what runs
//   cost later; printed as the median time per run of each block of runs, from the first run on;
// - pauses: a process that sat idle must refill the CPU caches, which costs more the more memory a run
//   touches; printed as the first run after each pause and the runs after it.
//
//   node dist/warmup-curve.js <implementation> [native|mcp] [blocks=30] [runs per block=100] [pause ms=1000]

import { setTimeout as sleep } from 'node:timers/promises'
import { startLocalBench } from './harness/in-process.js'
import { median } from './harness/stats.js'
import { timedRun } from './harness/timed-run.js'
import { implementationById } from './impls/registry.js'

const [
  id = 'toolnexus-ai-sdk',
  variant = 'native',
  blocksArgument = '30',
  sizeArgument = '100',
  pauseArgument = '1000',
] = process.argv.slice(2)
implementationById(id)
const local = await startLocalBench(variant === 'mcp' ? 'mcp' : 'native', 'warmup-endpoint')
const instance = await local.load(id)
const blocks: string[] = []
for (let block = 0; block < Number(blocksArgument); block++) {
  const durations: number[] = []
  for (let index = 0; index < Number(sizeArgument); index++) durations.push(await timedRun(instance))
  blocks.push(median(durations).toFixed(2))
}
process.stdout.write(
  `${id} ${variant}\n  warm-up, median ms per run of each block of ${sizeArgument} runs:\n  ${blocks.join(' ')}\n`,
)
const firsts: number[] = []
const later: number[] = []
for (let pause = 0; pause < 20; pause++) {
  await sleep(Number(pauseArgument))
  firsts.push(await timedRun(instance))
  for (let index = 0; index < 5; index++) later.push(await timedRun(instance))
}
process.stdout.write(
  `  after a ${pauseArgument} ms pause (20 pauses): first run ${median(firsts).toFixed(2)} ms, the next five ${median(later).toFixed(2)} ms (medians)\n`,
)
await instance.close()
await local.stop()
process.exit(0)
