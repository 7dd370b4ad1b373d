// The tool plumbing of the floor rows: what a hand-written loop needs and nothing more. Native tools call
// the scenario's functions; MCP tools go through the MCP SDK's own `Client` over its stdio transport — the
// v2 SDK (`@modelcontextprotocol/client`) toolnexus is built on, so that the floor and toolnexus pay the
// same SDK's cost per call (the v1 SDK's `Client` costs less per call: `bench/mcp-connect-cost.ts --only call`).

import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { CITY_JSON_SCHEMA, cityOf, getTime, getWeather, TIME_TOOL, WEATHER_TOOL } from '../scenario.js'
import type { ImplementationOptions } from './types.js'

/** A tool as a hand-written loop sees it: a declaration and a function from parsed args to output text. */
export interface PlainTool {
  name: string
  description: string
  parameters: Record<string, unknown>
  call(args: unknown): Promise<string>
}

export interface PlainTools {
  tools: PlainTool[]
  byName: Map<string, PlainTool>
  close(): Promise<void>
}

/** The scenario's tools for a floor row, native or over MCP. */
export async function loadPlainTools(options: ImplementationOptions): Promise<PlainTools> {
  if (options.variant === 'native') {
    const tools: PlainTool[] = [
      {
        ...WEATHER_TOOL,
        parameters: CITY_JSON_SCHEMA,
        call: async (args) => JSON.stringify(getWeather(cityOf(args))),
      },
      {
        ...TIME_TOOL,
        parameters: CITY_JSON_SCHEMA,
        call: async (args) => JSON.stringify(getTime(cityOf(args))),
      },
    ]
    return { tools, byName: new Map(tools.map((tool) => [tool.name, tool])), close: async () => {} }
  }
  const client = new Client({ name: 'bench-floor', version: '1.0.0' })
  await client.connect(new StdioClientTransport(options.mcpServer))
  const listed = await client.listTools()
  const tools = listed.tools.map(
    (tool): PlainTool => ({
      name: tool.name,
      description: tool.description ?? '',
      parameters: tool.inputSchema,
      call: async (args) => {
        const result = await client.callTool({ name: tool.name, arguments: args as Record<string, unknown> })
        const content = Array.isArray(result.content) ? result.content : []
        return content
          .map((part: { type: string; text?: string }) => (part.type === 'text' ? part.text : ''))
          .join('\n')
      },
    }),
  )
  return { tools, byName: new Map(tools.map((tool) => [tool.name, tool])), close: () => client.close() }
}

/** Runs one tool call of a hand-written loop; a failure becomes text the model can read, like a framework would. */
export async function callPlainTool(tools: PlainTools, name: string, args: unknown): Promise<string> {
  const tool = tools.byName.get(name)
  if (tool === undefined) return `Error: unknown tool ${name}`
  try {
    return await tool.call(args)
  } catch (error) {
    return `Error: ${error instanceof Error ? error.message : String(error)}`
  }
}
