import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

/** A loopback HTTP server on a free port that keeps every request and answers with `respond`. */
export interface RecordingServer {
  origin: string
  requests: RecordedRequest[]
  respond: (request: RecordedRequest, response: ServerResponse) => void
  close(): Promise<void>
}

const echo = (request: RecordedRequest, response: ServerResponse): void => {
  response.writeHead(200, { 'content-type': 'application/json' })
  response.end(JSON.stringify({ method: request.method, url: request.url, body: request.body }))
}

/** Starts the server; by default it answers 200 with a JSON echo of the request. */
export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = []
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const recorded: RecordedRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      requests.push(recorded)
      state.respond(recorded, response)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const state: RecordingServer = {
    origin: `http://127.0.0.1:${port}`,
    requests,
    respond: echo,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  return state
}
