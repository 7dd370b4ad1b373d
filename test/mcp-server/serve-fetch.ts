import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { createMcpHandler, type McpHandlerOptions } from '../../src/mcp-server/create-mcp-handler.js'
import type { Toolkit } from '../../src/toolkit/toolkit.js'

/** A fetch handler on a Node HTTP server: what Next.js or Hono do for a route, kept to the essentials. */
export interface FetchServer {
  /** `http://127.0.0.1:<port>` */
  url: string
  close(): Promise<void>
}

/**
 * Serves `toolkit` over MCP at `<url>/mcp` (with the handler's other `options`), each caller named by its
 * bearer token (a request without one is let in unnamed), and queues the server's close on `closers`.
 *
 * @example
 * const url = await serveByBearer(toolkit, closers) // new URL('http://127.0.0.1:…/mcp')
 */
export async function serveByBearer(
  toolkit: Toolkit,
  closers: Array<() => Promise<unknown>>,
  options: Omit<McpHandlerOptions, 'authorize'> = {},
): Promise<URL> {
  const server = await serveFetch(
    createMcpHandler({
      ...options,
      toolkit,
      authorize: (request) => request.headers.get('authorization')?.replace('Bearer ', '') ?? true,
    }),
  )
  closers.push(() => server.close())
  return new URL(`${server.url}/mcp`)
}

/**
 * Serves `handler` on 127.0.0.1 (port 0 unless given): each request becomes a `Request`, each `Response` (streamed
 * bodies included, for SSE) goes back as it comes.
 *
 * @example
 * const server = await serveFetch(createMcpHandler(toolkit))
 */
export async function serveFetch(
  handler: (request: Request) => Promise<Response>,
  port = 0,
): Promise<FetchServer> {
  const sockets = new Set<Socket>()
  const server = createServer((incoming, outgoing) => {
    answer(handler, incoming, outgoing).catch((error: unknown) => {
      if (!outgoing.headersSent) outgoing.writeHead(500)
      outgoing.end(String(error))
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const address = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

async function answer(
  handler: (request: Request) => Promise<Response>,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<void> {
  const chunks: Buffer[] = []
  for await (const chunk of incoming) chunks.push(chunk as Buffer)
  const headers = new Headers()
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (typeof value === 'string') headers.set(name, value)
    else if (Array.isArray(value)) for (const each of value) headers.append(name, each)
  }
  const controller = new AbortController()
  outgoing.on('close', () => controller.abort())
  const method = incoming.method ?? 'GET'
  const request = new Request(`http://${incoming.headers.host ?? '127.0.0.1'}${incoming.url ?? '/'}`, {
    method,
    headers,
    signal: controller.signal,
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
  })
  const response = await handler(request)
  outgoing.writeHead(response.status, Object.fromEntries(response.headers))
  if (response.body === null) {
    outgoing.end()
    return
  }
  outgoing.flushHeaders()
  const reader = response.body.getReader()
  try {
    while (true) {
      const next = await reader.read()
      if (next.done) break
      outgoing.write(next.value)
    }
  } catch {
    // The client went away.
  } finally {
    outgoing.end()
  }
}

/**
 * Serves an MCP `handler` like `serveFetch`, recording the JSON-RPC method of every request in `methods`;
 * `rewrite` may change an answer's body on its way out (a server that misbehaves on the wire).
 *
 * @example
 * const { server, methods } = await serveRecording(createMcpHandler({ toolkit }))
 */
export async function serveRecording(
  handler: (request: Request) => Promise<Response>,
  rewrite?: (body: string, method: string) => string,
): Promise<{ server: FetchServer; methods: string[] }> {
  const methods: string[] = []
  const server = await serveFetch(async (request) => {
    const method =
      request.method === 'POST' ? String(((await request.clone().json()) as { method?: unknown }).method) : ''
    methods.push(method)
    const response = await handler(request)
    if (rewrite === undefined) return response
    const body = rewrite(await response.text(), method)
    return new Response(body, { status: response.status, headers: response.headers })
  })
  return { server, methods }
}
