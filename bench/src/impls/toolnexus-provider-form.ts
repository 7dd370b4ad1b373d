// The provider form: the AI SDK's own `generateText`, its model wrapped by `withToolkit`, so the
// toolnexus loop runs the toolkit inside one model call (the tools reach `generateText` as
// provider-executed). The toolkit is the one the toolnexus rows use.

import { createOpenAI } from '@ai-sdk/openai'
import { generateText, isStepCount } from 'ai'
import { withToolkit } from 'toolnexus'
import { MODEL_ID, PROMPT, SYSTEM } from '../scenario.js'
import { createBenchToolkit } from './toolnexus-toolkit.js'
import type { CreateImplementation } from './types.js'

export const create: CreateImplementation = async (options) => {
  const toolkit = await createBenchToolkit(options)
  const model = withToolkit(
    createOpenAI({ baseURL: options.openaiBaseUrl, apiKey: 'bench' }).chat(MODEL_ID),
    {
      toolkit,
    },
  )
  return {
    async run() {
      const result = await generateText({ model, system: SYSTEM, prompt: PROMPT, stopWhen: isStepCount(10) })
      return result.text
    },
    close: () => toolkit.close(),
  }
}
