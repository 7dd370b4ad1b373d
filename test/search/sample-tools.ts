// Nineteen real MCP tools from LiveMCPBench (Apache-2.0, test/fixtures/search/LICENSE-livemcpbench), with
// their servers, as host tools that answer with their name and arguments.
import { readFileSync } from 'node:fs'
import type { JSONSchema, Tool } from '../../src/tool/types.js'
import type { RecordedRequest, ScriptStep } from '../support/scripted-server.js'

interface SampleServer {
  server: string
  serverDescription: string
  tools: Array<{ name: string; description: string; inputSchema: JSONSchema }>
}

const sample = JSON.parse(
  readFileSync(new URL('../fixtures/search/livemcpbench-sample.json', import.meta.url), 'utf8'),
) as SampleServer[]

/** The sample's tools, named `<server>_<tool>`, each answering `<name> ran with <args>`. */
export function sampleTools(): Tool[] {
  return sample.flatMap(({ server, serverDescription, tools }) =>
    tools.map(
      (tool): Tool => ({
        name: `${server}_${tool.name}`,
        description: tool.description,
        inputSchema: { ...tool.inputSchema, type: 'object' },
        source: 'custom',
        server: { name: server, description: serverDescription },
        execute: async (args) => ({
          output: `${server}_${tool.name} ran with ${JSON.stringify(args)}`,
          isError: false,
        }),
      }),
    ),
  )
}

/** The names `search_tools` loaded, read from its answer. */
export function loadedNames(answer: string): string[] {
  return [...answer.matchAll(/^- ([\w-]+)/gm)].map((match) => match[1] as string)
}

/** Searches, then calls the first tool its search loaded, then answers. */
export function searchThenCall(request: RecordedRequest, index: number): ScriptStep {
  if (index === 0) {
    return {
      type: 'reply',
      toolCalls: [{ id: 'call_search', name: 'search_tools', arguments: '{"query":"current stock price"}' }],
    }
  }
  if (index === 1) {
    const answer = request.body.messages.find((message: { role: string }) => message.role === 'tool')
    const [first] = loadedNames(String(answer?.content))
    return {
      type: 'reply',
      toolCalls: [{ id: 'call_price', name: String(first), arguments: '{"symbol":"NVDA"}' }],
    }
  }
  return { type: 'reply', text: 'NVDA is up.' }
}

export const declaredNames = (request: RecordedRequest): string[] =>
  (request.body.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name)

/** What the sample's search for "current stock price" loads (limit 3). */
export const FOUND = [
  'yahoo-finance_get_current_stock_price',
  'yahoo-finance_get_historical_stock_prices',
  'yahoo-finance_get_stock_price_by_date',
]
