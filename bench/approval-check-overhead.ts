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
import { pathToFileURL } from 'node:url'
import { benchOption, benchToolkit, type Contender, runSideBySide, scriptedModel } from './side-by-side.js'

type Library = typeof import('../src/index.js')
type Toolkit = Awaited<ReturnType<Library['createToolkit']>>

const rounds = Number(benchOption('rounds', '40'))
const batchSize = Number(benchOption('batch', '50'))
const baselineDir = benchOption('baseline', '')

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
const toolkit = await benchToolkit(library)
const client = library.createClient({ model: scriptedModel() as never })
const contenders: Contender[] = [
  { name: 'no check', run: () => client.run('Add and echo.', { toolkit: withoutCheck(toolkit) }) },
  { name: 'check', run: () => client.run('Add and echo.', { toolkit }) },
]
if (baselineDir !== '') {
  const baseline: Library = await import(pathToFileURL(resolve(baselineDir, 'index.ts')).href)
  const before = await benchToolkit(baseline)
  const beforeClient = baseline.createClient({ model: scriptedModel() as never })
  contenders.push({ name: 'before', run: () => beforeClient.run('Add and echo.', { toolkit: before }) })
}

await runSideBySide({ title: 'approval check overhead', contenders, rounds, batchSize })
await toolkit.close()
process.exit(0)
