// The least a loop inside `generateText` can cost: the toolnexus loop (`createClient`, as its own row
// runs it), then one `generateText` step over a model that answers at once with what the provider form
// answers (the two calls, their results and the text, recorded once from the wrapper at start). The
// provider form is that loop run inside that step, so this row is its floor: the AI SDK's own work for
// one step, which no wrapper can take away, added to the loop it wraps.

import { createOpenAI } from '@ai-sdk/openai'
import { generateText } from 'ai'
import { createClient, withToolkit } from 'toolnexus'
import { MODEL_ID, PROMPT, SYSTEM } from '../scenario.js'
import { createBenchToolkit } from './toolnexus-toolkit.js'
import type { CreateImplementation } from './types.js'

type Model = Parameters<typeof withToolkit>[0]

export const create: CreateImplementation = async (options) => {
  const toolkit = await createBenchToolkit(options)
  const model = createOpenAI({ baseURL: options.openaiBaseUrl, apiKey: 'bench' }).chat(MODEL_ID)
  const client = createClient({ model, system: SYSTEM })
  // What the provider form's model answers generateText for the scenario, recorded once.
  const wrapped = withToolkit(model, { toolkit }) as unknown as {
    doGenerate(options: unknown): Promise<unknown>
  }
  const answer = await wrapped.doGenerate({
    prompt: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: [{ type: 'text', text: PROMPT }] },
    ],
  })
  const instant = {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: {},
    doGenerate: async () => answer,
    doStream: async () => {
      throw new Error('not used')
    },
  } as unknown as Model
  return {
    async run() {
      const result = await client.run(PROMPT, { toolkit })
      const step = await generateText({ model: instant, system: SYSTEM, prompt: PROMPT })
      if (step.text !== result.text) throw new Error(`the recorded step reads ${JSON.stringify(step.text)}`)
      return result.text
    },
    close: () => toolkit.close(),
  }
}
