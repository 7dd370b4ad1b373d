// LangChain.js: `createAgent` from `langchain` over `ChatOpenAI`, zod tools via `tool`, and
// `@langchain/mcp-adapters`' `MultiServerMCPClient` for the MCP server.

import { MultiServerMCPClient } from '@langchain/mcp-adapters'
import { ChatOpenAI } from '@langchain/openai'
import { createAgent, tool } from 'langchain'
import { z } from 'zod'
import { getTime, getWeather, MODEL_ID, PROMPT, SYSTEM, TIME_TOOL, WEATHER_TOOL } from '../scenario.js'
import type { CreateImplementation } from './types.js'

const schema = z.object({ city: z.string().describe('The city name.') })

export const create: CreateImplementation = async (options) => {
  let close = async (): Promise<void> => {}
  let tools: Parameters<typeof createAgent>[0]['tools']
  if (options.variant === 'native') {
    tools = [
      tool(async ({ city }: { city: string }) => JSON.stringify(getWeather(city)), {
        ...WEATHER_TOOL,
        schema,
      }),
      tool(async ({ city }: { city: string }) => JSON.stringify(getTime(city)), { ...TIME_TOOL, schema }),
    ]
  } else {
    const client = new MultiServerMCPClient({
      mcpServers: { bench: { transport: 'stdio', ...options.mcpServer } },
    })
    tools = await client.getTools()
    close = () => client.close()
  }
  const agent = createAgent({
    model: new ChatOpenAI({
      model: MODEL_ID,
      apiKey: 'bench',
      configuration: { baseURL: options.openaiBaseUrl },
    }),
    tools,
    systemPrompt: SYSTEM,
  })
  return {
    async run() {
      const state = await agent.invoke({ messages: [{ role: 'user', content: PROMPT }] })
      const last = state.messages.at(-1)
      return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content)
    },
    close,
  }
}
