// toolnexus over `@google/genai`: the same toolkit, `createClient({ genai, model })`.

import { GoogleGenAI } from '@google/genai'
import { createClient } from 'toolnexus'
import { MODEL_ID, PROMPT, SYSTEM } from '../scenario.js'
import { createBenchToolkit } from './toolnexus-toolkit.js'
import type { CreateImplementation } from './types.js'

export const create: CreateImplementation = async (options) => {
  const toolkit = await createBenchToolkit(options)
  const genai = new GoogleGenAI({
    apiKey: 'bench',
    httpOptions: { baseUrl: options.geminiBaseUrl, apiVersion: 'v1beta' },
  })
  const client = createClient({ genai, model: MODEL_ID, system: SYSTEM })
  return {
    async run() {
      const result = await client.run(PROMPT, { toolkit })
      return result.text
    },
    close: () => toolkit.close(),
  }
}
