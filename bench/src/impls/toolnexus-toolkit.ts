// The toolkit both toolnexus rows use: the scenario's two tools as `defineTool`s, or the bench MCP server.

import { createToolkit, defineTool, type Toolkit } from 'toolnexus'
import { z } from 'zod'
import { getTime, getWeather, TIME_TOOL, WEATHER_TOOL } from '../scenario.js'
import type { ImplementationOptions } from './types.js'

const input = z.object({ city: z.string().describe('The city name.') })

export function createBenchToolkit(options: ImplementationOptions): Promise<Toolkit> {
  if (options.variant === 'mcp') {
    return createToolkit({ mcpConfig: { mcpServers: { bench: options.mcpServer } } })
  }
  return createToolkit({
    tools: [
      defineTool({
        ...WEATHER_TOOL,
        inputSchema: input,
        execute: ({ city }) => getWeather(city),
      }),
      defineTool({
        ...TIME_TOOL,
        inputSchema: input,
        execute: ({ city }) => getTime(city),
      }),
    ],
  })
}
