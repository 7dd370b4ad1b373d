// An MCP server on the v1 SDK (2025 revisions only), over stateful streamable HTTP on loopback, whose
// tools and prompt ask their client mid-call, on the session: `ask_name` (elicitation), `ask_twice` (two
// elicitations in turn), `sample` (sampling), `roots` (roots/list), and the prompt `asking_prompt`.
// Each records the questions it got answered, so a test can tell who answered.
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
} from '@modelcontextprotocol/sdk/types.js'

type Extra = { sendRequest: (request: never, schema: never) => Promise<unknown> }

const NAME_FORM = {
  message: 'What is your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
}

async function elicit(extra: Extra, message = NAME_FORM.message): Promise<string> {
  const answer = (await extra.sendRequest(
    { method: 'elicitation/create', params: { ...NAME_FORM, message } } as never,
    ElicitResultSchema as never,
  )) as { action: string; content?: { name?: unknown } }
  return answer.action === 'accept' ? String(answer.content?.name) : `(${answer.action})`
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] })

function buildServer(): McpServer {
  const server = new McpServer({ name: 'legacy-asking-source', version: '1.0.0' })
  server.registerTool('ask_name', { description: 'Asks the name, then greets.' }, async (extra) =>
    text(`Hello, ${await elicit(extra as unknown as Extra)}!`),
  )
  server.registerTool('ask_twice', { description: 'Asks two names in turn.' }, async (extra) => {
    const first = await elicit(extra as unknown as Extra, 'First name?')
    const second = await elicit(extra as unknown as Extra, 'Second name?')
    return text(`${first} and ${second}`)
  })
  server.registerTool('sample', { description: 'Asks for a sample.' }, async (extra) => {
    const sampled = (await (extra as unknown as Extra).sendRequest(
      {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 20 },
      } as never,
      CreateMessageResultSchema as never,
    )) as { content: { text?: string } }
    return text(`Sampled: ${String(sampled.content.text)}`)
  })
  server.registerTool('roots', { description: 'Lists the roots.' }, async (extra) => {
    const listed = (await (extra as unknown as Extra).sendRequest(
      { method: 'roots/list' } as never,
      ListRootsResultSchema as never,
    )) as { roots: Array<{ uri: string }> }
    return text(`Roots: ${listed.roots.map((root) => root.uri).join(', ')}`)
  })
  server.registerPrompt('asking_prompt', { description: 'Asks a name, then renders.' }, async (extra) => ({
    messages: [
      {
        role: 'user' as const,
        content: { type: 'text' as const, text: `Write to ${await elicit(extra as unknown as Extra)}.` },
      },
    ],
  }))
  return server
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const body = Buffer.concat(chunks).toString('utf8')
  return body === '' ? undefined : JSON.parse(body)
}

/** The server on 127.0.0.1 and a free port: its `/mcp` URL, and `close()`. */
export async function serveLegacySource(): Promise<{ url: string; close: () => Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>()
  const sockets = new Set<Socket>()
  const http = createServer(async (request, response) => {
    const sessionId = request.headers['mcp-session-id']
    const body = request.method === 'POST' ? await readJson(request) : undefined
    let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined
    if (transport === undefined) {
      if (typeof sessionId === 'string' || request.method !== 'POST') {
        response.writeHead(404).end()
        return
      }
      const fresh: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id): void => {
          sessions.set(id, fresh)
        },
      })
      transport = fresh
      await buildServer().connect(fresh)
    }
    await transport?.handleRequest(request, response, body)
  })
  http.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const { port } = http.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        http.close(() => resolve())
      }),
  }
}
