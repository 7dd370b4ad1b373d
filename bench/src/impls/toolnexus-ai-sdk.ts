// toolnexus over an AI SDK model: `createToolkit` (zod tools, or the MCP server from an mcp.json-shaped
// object) and `createClient({ model })`, as the README shows it.

import { createOpenAI } from '@ai-sdk/openai'
import { createClient, createToolkit, defineTool } from 'toolnexus'
import { z } from 'zod'
import { getTime, getWeather, MODEL_ID, PROMPT, SYSTEM, TIME_TOOL, WEATHER_TOOL } from '../scenario.js'
import type { CreateImplementation } from './types.js'

const input = z.object({ city: z.string().describe('The city name.') })

export const create: CreateImplementation = async (options) => {
  const toolkit =
    options.variant === 'native'
      ? await createToolkit({
          tools: [
            defineTool<{ city: string }>({
              ...WEATHER_TOOL,
              inputSchema: input,
              execute: ({ city }) => getWeather(city),
            }),
            defineTool<{ city: string }>({
              ...TIME_TOOL,
              inputSchema: input,
              execute: ({ city }) => getTime(city),
            }),
          ],
        })
      : await createToolkit({ mcpConfig: { mcpServers: { bench: options.mcpServer } } })
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
