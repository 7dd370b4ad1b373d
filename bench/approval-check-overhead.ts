// What the approval check costs a run that needs no approval, measured side by side in one process: the
// same in-process model (no network, so the loop's own work is all there is to see), the same two tools:
//
//   no check    a toolkit without `needsApproval` (a custom Toolkit): the loop skips the check entirely
//   check       createToolkit with no tool that needs approval: the loop asks, per call, and is told no
//
// With `--baseline <dir>` a third client runs the loop from another copy of `src/` (one from before
// approvals existed), to show the path is unchanged. Put the copy inside the repository, so its imports
// resolve:   mkdir -p node_modules/.cache/before && git archive 350caad src | tar -x -C node_modules/.cache/before
//
// Batches rotate so every client sees the same machine and moment; the figures are medians of per-round
// ratios against `no check`, CPU and wall. Run from the repository root:
//
//   npx tsx bench/approval-check-overhead.ts [--rounds 40] [--batch 50] [--baseline node_modules/.cache/before/src]

import { resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'

type Library = typeof import('../src/index.js')
type Toolkit = Awaited<ReturnType<Library['createToolkit']>>

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

async function toolkitOf(library: Library): Promise<Toolkit> {
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

/** The same toolkit seen through an object without `needsApproval`: what a custom Toolkit looks like. */
function withoutCheck(toolkit: Toolkit): Toolkit {
  return {
    tools: () => toolkit.tools(),
    get: (name: string) => toolkit.get(name),
    execute: (name: string, input: Record<string, unknown>, context?: object) =>
      toolkit.execute(name, input, context),
    skillsPrompt: () => toolkit.skillsPrompt(),
  } as unknown as Toolkit
}

const library: Library = await import('../src/index.js')
const toolkit = await toolkitOf(library)
const client = library.createClient({ model: scriptedModel() as never })
const contenders: Array<{ name: string; run: () => Promise<unknown> }> = [
  { name: 'no check', run: () => client.run('Add and echo.', { toolkit: withoutCheck(toolkit) }) },
  { name: 'check', run: () => client.run('Add and echo.', { toolkit }) },
]
if (baselineDir !== '') {
  const baseline: Library = await import(pathToFileURL(resolve(baselineDir, 'index.ts')).href)
  const before = await toolkitOf(baseline)
  const beforeClient = baseline.createClient({ model: scriptedModel() as never })
  contenders.push({ name: 'before', run: () => beforeClient.run('Add and echo.', { toolkit: before }) })
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
const results = contenders.map(() => [] as Array<{ wall: number; cpu: number }>)
for (let round = 0; round < rounds; round++) {
  for (let step = 0; step < contenders.length; step++) {
    const index = (round + step) % contenders.length
    results[index]?.push(await batch((contenders[index] as (typeof contenders)[number]).run, batchSize))
  }
}

const reference = results[0] as Array<{ wall: number; cpu: number }>
process.stdout.write(
  `approval check overhead: ${rounds} rounds × ${batchSize} runs (2 model calls, 2 tool calls each), medians\n`,
)
for (const [index, contender] of contenders.entries()) {
  const own = results[index] as Array<{ wall: number; cpu: number }>
  const ratio = (metric: 'wall' | 'cpu') =>
    median(
      own.map((value, round) => value[metric] / (reference[round] as { wall: number; cpu: number })[metric]),
    )
  process.stdout.write(
    `  ${contender.name.padEnd(9)} CPU ${median(own.map((value) => value.cpu))
      .toFixed(1)
      .padStart(7)} µs/run (${ratio('cpu').toFixed(2)}× no check)   wall ${median(
      own.map((value) => value.wall),
    )
      .toFixed(1)
      .padStart(7)} µs/run (${ratio('wall').toFixed(2)}× no check)\n`,
  )
}
await toolkit.close()
process.exit(0)
