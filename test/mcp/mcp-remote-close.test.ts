import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createToolkit, type Toolkit } from '../../src/index.js'

/**
 * A streamable HTTP MCP server that answers initialize and tools/list (any other method but tools/call with
 * "Method not found"), holds the GET event stream open,
 * never answers a tools/call, and never answers anything under /silent. It counts the sockets open on
 * its side.
 */
async function startSilentServer(): Promise<{ url: string; open: Set<Socket>; server: Server }> {
  const open = new Set<Socket>()
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    if (request.url?.startsWith('/silent')) return
    if (request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.write(': held open\n\n')
      return
    }
    if (request.method === 'DELETE') return void response.writeHead(200).end()
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    if (message.id === undefined) return void response.writeHead(202).end()
    const answer = (result: unknown): void => {
      response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'held' })
      response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }))
    }
    if (message.method === 'initialize') {
      answer({
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'silent', version: '1.0.0' },
      })
    } else if (message.method === 'tools/list') {
      answer({ tools: [{ name: 'hang', inputSchema: { type: 'object' } }] })
    } else if (message.method !== 'tools/call') {
      // What a 2025 server answers to a method it does not know (the client's era probe among them).
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32601, message: 'Method not found' },
        }),
      )
    }
    // tools/call: never answered.
  })
  server.on('connection', (socket) => {
    open.add(socket)
    socket.on('close', () => open.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return { url: `http://127.0.0.1:${address.port}`, open, server }
}

async function waitUntil(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 25))
  return check()
}

describe('close() ends every socket opened to a remote MCP server that never answers', () => {
  let toolkit: Toolkit | undefined
  let silent: Awaited<ReturnType<typeof startSilentServer>> | undefined

  afterEach(async () => {
    await toolkit?.close()
    for (const socket of silent?.open ?? []) socket.destroy()
    await new Promise((resolve) => silent?.server.close(resolve))
    toolkit = undefined
    silent = undefined
  })

  it('a server that never answers initialize keeps no socket once its start timed out and the toolkit closed', async () => {
    silent = await startSilentServer()
    toolkit = await createToolkit({
      logger: { warn: () => undefined },
      mcpConfig: { mcpServers: { mute: { url: `${silent.url}/silent`, timeout: 1000 } } },
    })
    expect(toolkit.mcpStatus()).toStrictEqual({ mute: 'failed' })
    await toolkit.close()
    // Server-side sockets see the client's FIN within moments; a kept-alive one would stay for seconds.
    expect(await waitUntil(() => silent?.open.size === 0, 1500)).toBe(true)
  }, 30_000)

  it('a held event stream, a tools/call with no answer and the idle kept-alive sockets are all closed', async () => {
    silent = await startSilentServer()
    const { open, url } = silent
    toolkit = await createToolkit({
      mcpConfig: { mcpServers: { held: { url: `${url}/mcp`, timeout: 60_000 } } },
    })
    const call = toolkit.execute('held_hang', {})
    // The event stream and the call are both in flight, beside the sockets of the answered requests.
    expect(await waitUntil(() => open.size >= 3)).toBe(true)
    await toolkit.close()
    expect(await waitUntil(() => open.size === 0, 1500)).toBe(true)
    expect((await call).isError).toBe(true)
  }, 30_000)
})
