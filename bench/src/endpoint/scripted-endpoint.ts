// The scripted model endpoint, run in its own process so that its work never lands on the measured side.
// It speaks OpenAI Chat Completions (JSON and SSE) and the Gemini REST API (generateContent and
// streamGenerateContent) and answers by the script in `scripted-model.ts`.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import {
  type GeminiRequest,
  geminiReply,
  type OpenAIRequest,
  openAIReply,
  type ScriptedReply,
} from './scripted-model.js'

const counters = { openai: 0, gemini: 0, errors: 0 }

function send(response: ServerResponse, reply: ScriptedReply): void {
  if (reply.failed) counters.errors++
  if (reply.kind === 'json') sendJson(response, reply.body)
  else sendSse(response, reply.events)
}

function sendJson(response: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body)
  response.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  })
  response.end(text)
}

function sendSse(response: ServerResponse, data: string[]): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  response.end(data.map((item) => `data: ${item}\n\n`).join(''))
}

function sendError(response: ServerResponse, status: number, message: string): void {
  counters.errors++
  const text = JSON.stringify({ error: { message, code: status } })
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  })
  response.end(text)
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return JSON.parse(Buffer.concat(chunks).toString('utf8'))
}

const GEMINI_PATH = /^\/v1beta\/models\/([^:/]+):(generateContent|streamGenerateContent)$/

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost')
  if (request.method !== 'POST') {
    sendError(response, 404, `no route for ${request.method} ${url.pathname}`)
    return
  }
  const body = await readJson(request)
  if (url.pathname === '/v1/chat/completions') {
    counters.openai++
    send(response, openAIReply(body as OpenAIRequest, counters.openai))
    return
  }
  const gemini = GEMINI_PATH.exec(url.pathname)
  if (gemini !== null) {
    counters.gemini++
    send(
      response,
      geminiReply(body as GeminiRequest, {
        model: gemini[1]!,
        streaming: gemini[2] === 'streamGenerateContent',
        sequence: counters.gemini,
      }),
    )
    return
  }
  sendError(response, 404, `no route for POST ${url.pathname}`)
}

const server = createServer((request, response) => {
  handle(request, response).catch((error: unknown) => {
    sendError(response, 400, error instanceof Error ? error.message : String(error))
  })
})
// Keep-alive long enough that no client ever reconnects mid-benchmark: connection setup is not what we measure.
server.keepAliveTimeout = 120_000
server.headersTimeout = 121_000
server.maxRequestsPerSocket = 0

server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  process.send?.({ type: 'listening', port })
})

process.on('message', (message: { type?: string }) => {
  if (message.type === 'stats') process.send?.({ type: 'stats', ...counters })
  if (message.type === 'close') process.exit(0)
})
process.on('disconnect', () => process.exit(0))
