// toolnexus over an AI SDK model: `createToolkit` (zod tools, or the MCP server from an mcp.json-shaped
// object) and `createClient({ model })`, as the README shows it.

import { createOpenAI } from '@ai-sdk/openai'
import { createClient } from 'toolnexus'
import { MODEL_ID, PROMPT, SYSTEM } from '../scenario.js'
import { createBenchToolkit } from './toolnexus-toolkit.js'
import type { CreateImplementation } from './types.js'

export const create: CreateImplementation = async (options) => {
  const toolkit = await createBenchToolkit(options)
  const client = createClient({
    model: createOpenAI({ baseURL: options.openaiBaseUrl, apiKey: 'bench' }).chat(MODEL_ID),
    system: SYSTEM,
  })
  return {
    async run() {
      const result = await client.run(PROMPT, { toolkit })
      return result.text
    },
    close: () => toolkit.close(),
  }
}
