// Mastra: an `Agent` with `createTool` tools, or `MCPClient.listTools()` for the MCP server.

import { createOpenAI } from '@ai-sdk/openai'
import { Agent } from '@mastra/core/agent'
import type { MastraModelConfig } from '@mastra/core/llm'
import { createTool } from '@mastra/core/tools'
import { MCPClient } from '@mastra/mcp'
import { z } from 'zod'
import { getTime, getWeather, MODEL_ID, PROMPT, SYSTEM, TIME_TOOL, WEATHER_TOOL } from '../scenario.js'
import type { CreateImplementation } from './types.js'

const input = z.object({ city: z.string().describe('The city name.') })

export const create: CreateImplementation = async (options) => {
  let close = async (): Promise<void> => {}
  let tools: ConstructorParameters<typeof Agent>[0]['tools']
  if (options.variant === 'native') {
    tools = {
      [WEATHER_TOOL.name]: createTool({
        id: WEATHER_TOOL.name,
        description: WEATHER_TOOL.description,
        inputSchema: input,
        execute: async ({ city }) => getWeather(city),
      }),
      [TIME_TOOL.name]: createTool({
        id: TIME_TOOL.name,
        description: TIME_TOOL.description,
        inputSchema: input,
        execute: async ({ city }) => getTime(city),
      }),
    }
  } else {
    const mcp = new MCPClient({ id: 'bench', servers: { bench: options.mcpServer } })
    tools = await mcp.listTools()
    close = () => mcp.disconnect()
  }
  const agent = new Agent({
    id: 'bench-agent',
    name: 'bench-agent',
    instructions: SYSTEM,
    // Mastra types models against its own pinned copy of @ai-sdk/provider (4.0.17; ours is 4.0.38): the same
    // spec v4 object at runtime, which Mastra accepts, but TypeScript sees two unrelated declarations.
    model: createOpenAI({ baseURL: options.openaiBaseUrl, apiKey: 'bench' }).chat(
      MODEL_ID,
    ) as unknown as MastraModelConfig,
    tools,
  })
  return {
    async run() {
      const result = await agent.generate(PROMPT, { maxSteps: 10 })
      return result.text
    },
    close,
  }
}
