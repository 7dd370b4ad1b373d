// The AI SDK's own loop: `generateText` with `stopWhen`, zod tools, and `@ai-sdk/mcp` for MCP tools.

import { createMCPClient } from '@ai-sdk/mcp'
import { StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio'
import { createOpenAI } from '@ai-sdk/openai'
import { type ToolSet, tool } from 'ai'
import { z } from 'zod'
import { getTime, getWeather, MODEL_ID, TIME_TOOL, WEATHER_TOOL } from '../scenario.js'
import { generateTextInstance } from './generate-text-instance.js'
import type { CreateImplementation } from './types.js'

const input = z.object({ city: z.string().describe('The city name.') })

export const create: CreateImplementation = async (options) => {
  const model = createOpenAI({ baseURL: options.openaiBaseUrl, apiKey: 'bench' }).chat(MODEL_ID)
  let tools: ToolSet
  let close = async (): Promise<void> => {}
  if (options.variant === 'native') {
    tools = {
      [WEATHER_TOOL.name]: tool({
        description: WEATHER_TOOL.description,
        inputSchema: input,
        execute: async ({ city }) => getWeather(city),
      }),
      [TIME_TOOL.name]: tool({
        description: TIME_TOOL.description,
        inputSchema: input,
        execute: async ({ city }) => getTime(city),
      }),
    }
  } else {
    const client = await createMCPClient({ transport: new StdioMCPTransport(options.mcpServer) })
    tools = await client.tools()
    close = () => client.close()
  }
  return generateTextInstance(model, tools, close)
}
