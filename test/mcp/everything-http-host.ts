// Hosts @modelcontextprotocol/server-everything (its own server factory, in process) over streamable
// HTTP on a loopback port: its bundled HTTP launcher listens on every interface and a fixed port.
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { everythingServerPath } from './mcp-fixtures.js'

interface EverythingFactory {
  createServer(): {
    server: { connect(transport: unknown): Promise<void> }
    cleanup(sessionId?: string): void
  }
}

export interface EverythingHttpHost {
  url: string
  close(): Promise<void>
}

export async function startEverythingOverHttp(): Promise<EverythingHttpHost> {
  const factory = (await import(
    pathToFileURL(join(dirname(everythingServerPath()), 'server', 'index.js')).href
  )) as EverythingFactory
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; cleanup: () => void }>()
  const http = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const id = request.headers['mcp-session-id']
    const known = typeof id === 'string' ? sessions.get(id) : undefined
    if (known !== undefined) return known.transport.handleRequest(request, response)
    if (request.method !== 'POST') {
      response.writeHead(typeof id === 'string' ? 404 : 400).end()
      return
    }
    const { server, cleanup } = factory.createServer()
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, cleanup: () => cleanup(sessionId) })
      },
    })
    transport.onclose = () => {
      const sessionId = transport.sessionId
      if (sessionId === undefined) return
      sessions.get(sessionId)?.cleanup()
      sessions.delete(sessionId)
    }
    await server.connect(transport)
    await transport.handleRequest(request, response)
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const { port } = http.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      for (const { transport } of sessions.values()) await transport.close().catch(() => undefined)
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
}
