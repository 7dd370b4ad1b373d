// Where the provider form's time goes, measured side by side in one process: the same in-process model
// (no network, so the libraries' own work is all there is to see), the same two tools:
//
//   createClient         client.run(prompt, { toolkit }): the toolnexus loop, nothing around it
//   wrapper              withToolkit(model).doGenerate(...) called directly: the same loop, plus what the
//                        provider form adds to turn it into one model call (prompt, parts, usage)
//   generateText         generateText({ model: withToolkit(model) }): the provider form as users run it
//   createClient + step  client.run, then one generateText step over a model that answers at once with
//                        what the wrapper answers (two calls, their results, the text): the least any
//                        loop inside generateText can cost, since the AI SDK's own step is in it
//
// `wrapper ÷ createClient` is what toolnexus adds; `generateText ÷ createClient + step` is the provider
// form against that least cost; `generateText ÷ createClient` mixes both with the AI SDK's step, whose
// share depends on how fast the model answers (here: at once). Batches rotate so every contender sees the
// same machine and moment; the figures are medians of per-round ratios against `createClient`, CPU and
// wall. Run from the repository root:
//
//   npx tsx bench/provider-form-overhead.ts [--rounds 40] [--batch 50]

import { generateText } from 'ai'
import { benchOption, benchToolkit, type Contender, runSideBySide, scriptedModel } from './side-by-side.js'

type Library = typeof import('../src/index.js')

const rounds = Number(benchOption('rounds', '40'))
const batchSize = Number(benchOption('batch', '50'))
const PROMPT = 'Add and echo.'

const library: Library = await import('../src/index.js')
const toolkit = await benchToolkit(library)
const client = library.createClient({ model: scriptedModel() as never })
const wrapped = library.withToolkit(scriptedModel() as never, { toolkit })
const userPrompt = [{ role: 'user', content: [{ type: 'text', text: PROMPT }] }]

// What the wrapper answers generateText, recorded once, then answered at once by a model of its own.
const answer = await (wrapped as unknown as { doGenerate(options: unknown): Promise<unknown> }).doGenerate({
  prompt: userPrompt,
})
const instant = {
  ...scriptedModel(),
  doGenerate: async () => answer,
}
const { text } = await generateText({ model: instant as never, prompt: PROMPT })
if (text !== 'Done.') throw new Error(`the recorded answer reads ${JSON.stringify(text)}, not "Done."`)

const contenders: Contender[] = [
  { name: 'createClient', run: () => client.run(PROMPT, { toolkit }) },
  {
    name: 'wrapper',
    run: () =>
      (wrapped as unknown as { doGenerate(options: unknown): Promise<unknown> }).doGenerate({
        prompt: userPrompt,
      }),
  },
  { name: 'generateText', run: () => generateText({ model: wrapped, prompt: PROMPT }) },
  {
    name: 'createClient + step',
    run: async () => {
      await client.run(PROMPT, { toolkit })
      await generateText({ model: instant as never, prompt: PROMPT })
    },
  },
]

await runSideBySide({ title: 'provider form overhead', contenders, rounds, batchSize })
await toolkit.close()
process.exit(0)
