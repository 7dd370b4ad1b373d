// The stdio MCP server bench/mcp-connect-cost.ts starts N of: a server on the v2 SDK serving both eras,
// with `echo` (answers its text) and `lists` (how many tools/list requests this process answered). Its
// tool list stays fresh for a minute (`ttlMs`), so a client that honours it does not list again.
// `--2025` serves the same tools on the v1 SDK instead, which speaks the 2025 revisions only (most servers
// in use today): a client that asks `server/discover` first gets "method not found" and falls back.

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

function answer(params) {
  const text = params.name === 'lists' ? String(lists) : String(params.arguments?.text)
  return { content: [{ type: 'text', text }] }
}

if (process.argv.includes('--2025')) {
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js')
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js')
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js')
  const server = new Server({ name: 'connect-bench-2025', version: '1.0.0' }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, () => {
    lists++
    return { tools: TOOLS }
  })
  server.setRequestHandler(CallToolRequestSchema, (request) => answer(request.params))
  await server.connect(new StdioServerTransport())
} else {
  const { Server } = await import('@modelcontextprotocol/server')
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio')
  serveStdio(
    () => {
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
      server.setRequestHandler('tools/call', (request) => answer(request.params))
      return server
    },
    { legacy: 'serve' },
  )
}
