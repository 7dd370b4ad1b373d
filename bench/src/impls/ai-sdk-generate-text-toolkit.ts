// The AI SDK's own loop over a toolnexus toolkit: `generateText` with `tools: toolkit.toAISDK()`, the
// way to use a toolkit without the toolnexus loop. The toolkit is the one the toolnexus rows use.

import { createOpenAI } from '@ai-sdk/openai'
import { MODEL_ID } from '../scenario.js'
import { generateTextInstance } from './generate-text-instance.js'
import { createBenchToolkit } from './toolnexus-toolkit.js'
import type { CreateImplementation } from './types.js'

export const create: CreateImplementation = async (options) => {
  const toolkit = await createBenchToolkit(options)
  const model = createOpenAI({ baseURL: options.openaiBaseUrl, apiKey: 'bench' }).chat(MODEL_ID)
  return generateTextInstance(model, toolkit.toAISDK(), () => toolkit.close())
}
