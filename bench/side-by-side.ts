// What the in-process side-by-side benches share: their options, one scripted model, the two tools, and
// batches rotated so every contender sees the same machine and moment, reported as medians of per-round
// ratios against the first contender, CPU and wall.

import { performance } from 'node:perf_hooks'

type Library = typeof import('../src/index.js')

/** A contender: a name, and one whole run. */
export interface Contender {
  name: string
  run: () => Promise<unknown>
}

interface Sample {
  wall: number
  cpu: number
}

/** `--name value` from the command line, or `fallback`. */
export function benchOption(name: string, fallback: string): string {
  const args = process.argv.slice(2)
  const index = args.indexOf(`--${name}`)
  return index === -1 ? fallback : (args[index + 1] ?? fallback)
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
}

/** A spec-v3 model answering turn 1 with two tool calls (`add`, `echo`) and turn 2 with text, forever. */
export function scriptedModel() {
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

/** The scripted model's two tools, from `library` (this repository's `src`, or a copy of it). */
export function benchToolkit(library: Library): ReturnType<Library['createToolkit']> {
  return library.createToolkit({
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
}

async function batch(run: () => Promise<unknown>, count: number): Promise<Sample> {
  const cpuStart = process.cpuUsage()
  const start = performance.now()
  for (let index = 0; index < count; index++) await run()
  const cpu = process.cpuUsage(cpuStart)
  return { wall: ((performance.now() - start) * 1000) / count, cpu: (cpu.user + cpu.system) / count }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

/**
 * Warms every contender up (`warmup` runs each, 1,000 by default, in batches of 100 taking turns), then
 * takes `rounds` rounds of `batchSize` runs each, the order rotating every round (so no contender always
 * runs first), and prints each one's median CPU and wall time per run with its median ratio to the first
 * contender. `afterBatch` sees each batch's contender index. Resolves each contender's median CPU and
 * wall µs per run.
 */
export async function runSideBySide(options: {
  title: string
  contenders: readonly Contender[]
  rounds: number
  batchSize: number
  warmup?: number
  afterBatch?: (index: number) => void
}): Promise<Array<{ name: string; cpu: number; wall: number }>> {
  const { title, contenders, rounds, batchSize, warmup = 1000, afterBatch } = options
  for (let warm = 0; warm < Math.ceil(warmup / 100); warm++) {
    for (const contender of contenders) await batch(contender.run, 100)
  }
  const results = contenders.map(() => [] as Sample[])
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < contenders.length; step++) {
      const index = (round + step) % contenders.length
      results[index]?.push(await batch((contenders[index] as Contender).run, batchSize))
      afterBatch?.(index)
    }
  }
  const reference = results[0] as Sample[]
  const referenceName = contenders[0]?.name ?? ''
  const width = Math.max(...contenders.map((contender) => contender.name.length))
  process.stdout.write(
    `${title}: ${rounds} rounds × ${batchSize} runs (2 model calls, 2 tool calls each) after ${warmup} runs each to warm up, medians\n`,
  )
  for (const [index, contender] of contenders.entries()) {
    const own = results[index] as Sample[]
    const ratio = (metric: keyof Sample) =>
      median(own.map((value, round) => value[metric] / (reference[round] as Sample)[metric])).toFixed(2)
    const cpu = median(own.map((value) => value.cpu))
      .toFixed(1)
      .padStart(7)
    const wall = median(own.map((value) => value.wall))
      .toFixed(1)
      .padStart(7)
    process.stdout.write(
      `  ${contender.name.padEnd(width)} CPU ${cpu} µs/run (${ratio('cpu')}× ${referenceName})   wall ${wall} µs/run (${ratio('wall')}× ${referenceName})\n`,
    )
  }
  return contenders.map((contender, index) => {
    const own = results[index] as Sample[]
    return {
      name: contender.name,
      cpu: median(own.map((value) => value.cpu)),
      wall: median(own.map((value) => value.wall)),
    }
  })
}
