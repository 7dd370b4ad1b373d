import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** A tool call a scripted model makes; `arguments` is the JSON text (or deliberately broken text). */
export interface ScriptedToolCall {
  id: string
  name: string
  arguments: string
}

/** One answer of a scripted endpoint. */
export type ScriptStep =
  | {
      type: 'reply'
      text?: string
      toolCalls?: ScriptedToolCall[]
      usage?: { input: number; output: number }
    }
  | { type: 'error'; status: number; headers?: Record<string, string>; message?: string }
  /** Never answers; the connection stays open until the client gives up or the server closes. */
  | { type: 'hang' }
  /** Cuts the connection without an answer (a network failure). */
  | { type: 'drop' }

/** A request the endpoint received. */
export interface RecordedRequest {
  method: string
  path: string
  headers: IncomingMessage['headers']
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are asserted by snapshot, any shape goes.
  body: any
}

/** The steps in order, or a function that decides each step from the request (for endless scripts). */
export type Script = ScriptStep[] | ((request: RecordedRequest, index: number) => ScriptStep)

/** How one provider's wire protocol renders a step. */
export interface WireProtocol {
  /** True when the request asks for a stream (SSE). */
  isStream(request: RecordedRequest): boolean
  /** A reply as a JSON body. */
  json(step: Extract<ScriptStep, { type: 'reply' }>, request: RecordedRequest): unknown
  /** A reply as SSE events: `data` JSON plus an optional `event` name; `raw` lines go as they are. */
  events(
    step: Extract<ScriptStep, { type: 'reply' }>,
    request: RecordedRequest,
  ): Array<{ event?: string; data: unknown } | { raw: string }>
  /** The provider's error body. */
  error(status: number, message: string): unknown
  /** Why the provider would refuse this request with a 400 (its schema rules), if it would. */
  refuse?(request: RecordedRequest): string | undefined
}

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>` */
  url: string
  requests: RecordedRequest[]
  close(): Promise<void>
}

/**
 * A local endpoint that speaks one provider's wire protocol (JSON and SSE), records every request body,
 * and answers by playing a script. Loopback only, port 0.
 */
export async function startScriptedServer(options: {
  protocol: WireProtocol
  script: Script
}): Promise<ScriptedServer> {
  const { protocol, script } = options
  const requests: RecordedRequest[] = []
  const sockets = new Set<Socket>()
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const request: RecordedRequest = {
        method: incoming.method ?? 'GET',
        path: incoming.url ?? '/',
        headers: incoming.headers,
        body: text === '' ? undefined : JSON.parse(text),
      }
      const index = requests.length
      requests.push(request)
      const refusal = protocol.refuse?.(request)
      if (refusal !== undefined) {
        sendJson(response, 400, protocol.error(400, refusal))
        return
      }
      const step = typeof script === 'function' ? script(request, index) : script[index]
      answer({ protocol, request, response, step })
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

function answer(options: {
  protocol: WireProtocol
  request: RecordedRequest
  response: ServerResponse
  step: ScriptStep | undefined
}): void {
  const { protocol, request, response, step } = options
  if (step === undefined) {
    sendJson(response, 500, protocol.error(500, `script exhausted at request ${request.path}`))
    return
  }
  switch (step.type) {
    case 'hang':
      return
    case 'drop':
      response.socket?.destroy()
      return
    case 'error':
      sendJson(
        response,
        step.status,
        protocol.error(step.status, step.message ?? `scripted ${step.status}`),
        step.headers,
      )
      return
    case 'reply': {
      if (!protocol.isStream(request)) {
        sendJson(response, 200, protocol.json(step, request))
        return
      }
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      for (const event of protocol.events(step, request)) {
        if ('raw' in event) response.write(`${event.raw}\n\n`)
        else
          response.write(
            `${event.event === undefined ? '' : `event: ${event.event}\n`}data: ${JSON.stringify(event.data)}\n\n`,
          )
      }
      response.end()
      return
    }
    default: {
      const unknown: never = step
      throw new Error(`unknown step ${JSON.stringify(unknown)}`)
    }
  }
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers })
  response.end(JSON.stringify(body))
}

/** Splits text in two, so streams carry more than one delta. */
export function splitText(text: string): string[] {
  if (text.length < 2) return [text]
  const middle = Math.ceil(text.length / 2)
  return [text.slice(0, middle), text.slice(middle)]
}
