// The stdio MCP server every MCP variant connects to: the scenario's two tools, written with the SDK's
// McpServer. `--startup-delay-ms N` waits before answering, standing in for servers that do I/O before
// they are ready (an `npx` resolve, a login): it shows whether connects overlap. `--name` only labels it.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { z } from 'zod'
import { getTime, getWeather, TIME_TOOL, WEATHER_TOOL } from '../scenario.js'

function flag(name: string): string | undefined {
  const index = process.argv.indexOf(name)
  return index === -1 ? undefined : process.argv[index + 1]
}

const startupDelayMs = Number(flag('--startup-delay-ms') ?? 0)
const server = new McpServer({ name: flag('--name') ?? 'bench', version: '1.0.0' })
const input = { city: z.string().describe('The city name.') }

server.registerTool(
  WEATHER_TOOL.name,
  { description: WEATHER_TOOL.description, inputSchema: input },
  ({ city }) => ({
    content: [{ type: 'text', text: JSON.stringify(getWeather(city)) }],
  }),
)
server.registerTool(
  TIME_TOOL.name,
  { description: TIME_TOOL.description, inputSchema: input },
  ({ city }) => ({
    content: [{ type: 'text', text: JSON.stringify(getTime(city)) }],
  }),
)

if (startupDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, startupDelayMs))
await server.connect(new StdioServerTransport())
