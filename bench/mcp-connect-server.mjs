// The stdio MCP server bench/mcp-connect-cost.ts starts N of: a server on the v2 SDK serving both eras,
// with `echo` (answers its text) and `lists` (how many tools/list requests this process answered). Its
// tool list stays fresh for a minute (`ttlMs`), so a client that honours it does not list again.
import { Server } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'

let lists = 0
const TOOLS = [
  {
    name: 'echo',
    description: 'Answers its text.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  {
    name: 'lists',
    description: 'How many tools/list requests this server answered.',
    inputSchema: { type: 'object', properties: {} },
  },
]

function buildServer() {
  const server = new Server(
    { name: 'connect-bench', version: '1.0.0' },
    {
      capabilities: { tools: {} },
      cacheHints: { 'tools/list': { ttlMs: 60_000, cacheScope: 'private' } },
    },
  )
  server.setRequestHandler('tools/list', () => {
    lists++
    return { tools: TOOLS }
  })
  server.setRequestHandler('tools/call', (request) => {
    const text = request.params.name === 'lists' ? String(lists) : String(request.params.arguments?.text)
    return { content: [{ type: 'text', text }] }
  })
  return server
}

serveStdio(buildServer, { legacy: 'serve' })
