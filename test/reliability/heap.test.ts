// Heap stays flat over 10,000 runs of one client and one toolkit: an in-process model (no HTTP, keeps
// nothing), run and stream mixed, 50 at a time. The heap is measured after a forced GC, once after a
// warm-up and once after the runs; growth must stay far below what keeping every transcript would cost.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { failOnUnhandledRejections, firstUserText, inProcessModel, lastToolOutputs } from './support.js'

// `--expose-gc` set at run time: a fresh context then sees `gc`, without flags on the vitest worker.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const RUNS = 10_000
const WARM_UP = 1_000
const BATCH = 50
// Keeping each run's transcript (some 2 KB) would grow the heap by ~20 MB over 10,000 runs.
const MAX_GROWTH_BYTES = 4 * 1024 * 1024

failOnUnhandledRejections()

function heapAfterGc(): number {
  for (let pass = 0; pass < 3; pass++) gc()
  return process.memoryUsage().heapUsed
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)} MB`

it(`holds the heap flat over ${RUNS.toLocaleString('en')} runs`, async () => {
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks a key up.',
    inputSchema: {
      type: 'object',
      properties: { key: { type: 'string' } },
      required: ['key'],
      additionalProperties: false,
    },
    execute: ({ key }) => ({ key, value: `value of ${String(key)}`, padding: 'p'.repeat(512) }),
  })
  const toolkit = await createToolkit({ tools: [lookup] })
  const model = inProcessModel((prompt) => {
    const outputs = lastToolOutputs(prompt)
    if (outputs !== undefined) return { text: `answered: ${outputs.join('')}` }
    const key = firstUserText(prompt)
    return { calls: [{ toolCallId: `call-${key}`, toolName: 'lookup', input: JSON.stringify({ key }) }] }
  })
  const client = createClient({ model, system: 'You look things up.' })

  let completed = 0
  const runBatch = async (first: number, streaming: boolean): Promise<void> => {
    await Promise.all(
      Array.from({ length: BATCH }, async (_, offset) => {
        const key = `k${first + offset}`
        const result = streaming
          ? await client.stream(key, { toolkit }).result
          : await client.run(key, { toolkit })
        // Checked on every run, so a fast path that skipped work could not pass for a flat heap.
        if (
          result.toolCalls[0]?.output !==
          JSON.stringify({ key, value: `value of ${key}`, padding: 'p'.repeat(512) })
        ) {
          throw new Error(`run ${key} got ${result.toolCalls[0]?.output}`)
        }
        completed++
      }),
    )
  }

  for (let first = 0; first < WARM_UP; first += BATCH) await runBatch(first, first % (BATCH * 2) === 0)
  const before = heapAfterGc()
  const started = Date.now()
  for (let first = 0; first < RUNS; first += BATCH) await runBatch(WARM_UP + first, first % (BATCH * 2) === 0)
  const elapsed = Date.now() - started
  const after = heapAfterGc()
  const growth = after - before
  console.info(
    `[reliability] heap over ${RUNS} runs (${BATCH} at a time, run and stream): ` +
      `after warm-up ${mb(before)}, after runs ${mb(after)}, growth ${mb(growth)}; ` +
      `${elapsed} ms (${((elapsed / RUNS) * 1000).toFixed(0)} µs per run)`,
  )
  expect(completed).toBe(RUNS + WARM_UP)
  expect(growth).toBeLessThan(MAX_GROWTH_BYTES)
}, 180_000)
