// The AI SDK's own loop over a toolnexus toolkit: `generateText` with `tools: toolkit.toAISDK()`, the
// way to use a toolkit without the toolnexus loop. The toolkit is the one the toolnexus rows use.

import { createOpenAI } from '@ai-sdk/openai'
import { generateText, isStepCount } from 'ai'
import { MODEL_ID, PROMPT, SYSTEM } from '../scenario.js'
import { createBenchToolkit } from './toolnexus-toolkit.js'
import type { CreateImplementation } from './types.js'

export const create: CreateImplementation = async (options) => {
  const toolkit = await createBenchToolkit(options)
  const model = createOpenAI({ baseURL: options.openaiBaseUrl, apiKey: 'bench' }).chat(MODEL_ID)
  const tools = toolkit.toAISDK()
  return {
    async run() {
      const result = await generateText({
        model,
        system: SYSTEM,
        prompt: PROMPT,
        tools,
        stopWhen: isStepCount(10),
      })
      return result.text
    },
    close: () => toolkit.close(),
  }
}
