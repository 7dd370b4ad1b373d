// The 1,000-tool toolkit of the scale bench converted to each format, side by side in one process: the
// converters take turns round after round, so each sees the same machine and moment. Prints each one's
// warm median and its ratio to toOpenAI (the least work: no schema copy). Run from the repository root:
//
//   npx tsx bench/conversion.ts [--rounds 25]

import { performance } from 'node:perf_hooks'
import { benchOption } from './side-by-side.js'
import { syntheticToolDefinitions } from './src/scale/synthetic-tools.js'

const rounds = Number(benchOption('rounds', '25'))
const { createToolkit, defineTool } = await import('../src/index.js')

const tools = syntheticToolDefinitions(1000).map((definition) => defineTool(definition))
const toolkit = await createToolkit({ tools })
const converters: Array<[string, () => unknown]> = [
  ['toOpenAI', () => toolkit.toOpenAI()],
  ['toGemini', () => toolkit.toGemini()],
  ['toAISDK', () => toolkit.toAISDK()],
  ['toAISDK (strict)', () => toolkit.toAISDK({ strict: true })],
]
const first = new Map<string, number>()
const warm = new Map<string, number[]>()
for (const [name, convert] of converters) {
  const start = performance.now()
  convert()
  first.set(name, performance.now() - start)
  warm.set(name, [])
}
for (let round = 0; round < rounds; round++) {
  for (const [name, convert] of converters) {
    const start = performance.now()
    convert()
    warm.get(name)?.push(performance.now() - start)
  }
}
await toolkit.close()

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[values.length >> 1] ?? Number.NaN
const floor = median(warm.get('toOpenAI') ?? [])
process.stdout.write(
  `1,000 tools, ${rounds} rounds (load average ${(await import('node:os')).loadavg()[0]?.toFixed(1)})\n`,
)
for (const [name] of converters) {
  const ms = median(warm.get(name) ?? [])
  process.stdout.write(
    `${name.padEnd(18)} first ${(first.get(name) ?? 0).toFixed(1).padStart(7)} ms  warm median ${ms.toFixed(2).padStart(7)} ms  ${(ms / floor).toFixed(1).padStart(6)}× toOpenAI\n`,
  )
}
