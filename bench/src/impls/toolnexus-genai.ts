// toolnexus over `@google/genai`: the same toolkit, `createClient({ genai, model })`.

import { GoogleGenAI } from '@google/genai'
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
