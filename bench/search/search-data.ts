// The two tool-choice benchmarks under bench/data/, read as toolkit tools, with each set split once, by a
// hash of the request text, into a part to tune on and a part held out for the last measurement.
//
//   MetaTool (MIT): 199 tools (name → description), 5,153 requests with the one tool that serves each.
//   LiveMCPBench (Apache-2.0): 70 MCP servers, 527 tools with input schemas, 30 tasks with the tools an
//   annotator used. Tools are named as a toolkit names MCP tools, `<server>_<tool>`.

import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sanitizeToolName } from '../../src/tool/names.js'
import type { JSONSchema, Tool } from '../../src/tool/types.js'

const dataDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'data')

export type Part = 'tune' | 'holdout'

export interface ToolQuery {
  query: string
  /** The tools that serve it, by the names `answerName` gives. */
  expected: string[]
  part: Part
}

export interface SearchDataSet {
  tools: Tool[]
  queries: ToolQuery[]
  /** The name the answers use for an exposed name (LiveMCPBench's annotations leave out the server). */
  answerName(exposed: string): string
}

/** Two in five requests are held out, chosen by a hash of their text (stable across runs and machines). */
export function partOf(text: string): Part {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0) % 5 < 3 ? 'tune' : 'holdout'
}

function benchTool(fields: {
  name: string
  description: string
  inputSchema?: JSONSchema
  server?: Tool['server']
}): Tool {
  return {
    name: fields.name,
    description: fields.description,
    inputSchema: fields.inputSchema ?? { type: 'object', properties: {} },
    source: fields.server === undefined ? 'native' : 'mcp',
    ...(fields.server !== undefined && { server: fields.server }),
    execute: async (args) => ({ output: `${fields.name} ran with ${JSON.stringify(args)}`, isError: false }),
  }
}

export function loadMetaTool(): SearchDataSet {
  const described = JSON.parse(readFileSync(join(dataDir, 'metatool', 'tools.json'), 'utf8')) as Record<
    string,
    string
  >
  const tools = Object.entries(described).map(([name, description]) =>
    benchTool({ name: sanitizeToolName(name), description }),
  )
  const queries = readFileSync(join(dataDir, 'metatool', 'queries-dev.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const { query, tool } = JSON.parse(line) as { query: string; tool: string }
      return { query, expected: [sanitizeToolName(tool)], part: partOf(query) }
    })
  return { tools, queries, answerName: (exposed) => exposed }
}

interface LiveServer {
  name: string
  description: string
  tools: Record<
    string,
    { tools: Array<{ name: string; description?: string | null; inputSchema?: JSONSchema }> }
  >
}

export function loadLiveMcpBench(): SearchDataSet {
  const servers = JSON.parse(
    readFileSync(join(dataDir, 'livemcpbench', 'servers.json'), 'utf8'),
  ) as LiveServer[]
  const tools: Tool[] = []
  // Annotations name a tool by its own name, without its server.
  const original = new Map<string, string>()
  for (const server of servers) {
    for (const [key, listed] of Object.entries(server.tools)) {
      for (const tool of listed.tools) {
        const name = sanitizeToolName(`${key}_${tool.name}`)
        tools.push(
          benchTool({
            name,
            description: tool.description ?? '',
            ...(tool.inputSchema !== undefined && { inputSchema: tool.inputSchema }),
            server: { name: key, description: `${server.name}. ${server.description}` },
          }),
        )
        original.set(name, tool.name)
      }
    }
  }
  const tasks = JSON.parse(readFileSync(join(dataDir, 'livemcpbench', 'tasks-dev.json'), 'utf8')) as Array<{
    question: string
    tools: string[]
  }>
  const known = new Set(original.values())
  const queries = tasks
    .map((task) => ({
      query: task.question,
      // An annotated name no tool has is left out; a name several servers share is found through any of them.
      expected: [...new Set(task.tools.filter((name) => known.has(name)))],
      part: partOf(task.question),
    }))
    .filter((task) => task.expected.length > 0)
  return { tools, queries, answerName: (exposed) => original.get(exposed) ?? exposed }
}
