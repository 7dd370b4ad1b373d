// The scripted model endpoint, run in its own process so that its work never lands on the measured side.
// It speaks OpenAI Chat Completions (JSON and SSE) and the Gemini REST API (generateContent and
// streamGenerateContent), and plays one deterministic script: a fresh question → two parallel tool calls;
// both tool results back → the final answer. It checks what it gets: a result that is missing, mismatched
// or without the tool's output turns the answer into a `BENCH-ERROR`, which fails the run that sent it.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { CITY, EXPECTED_ANSWER, TIME_MARKER, TIME_TOOL, WEATHER_MARKER, WEATHER_TOOL } from '../scenario.js'

/** What the script decided for one request. */
type Decision = { kind: 'calls'; weatherName: string; timeName: string } | { kind: 'answer'; text: string }

const WEATHER_CALL_ID = 'call_weather'
const TIME_CALL_ID = 'call_time'
const ARGUMENTS = { city: CITY }
const USAGE_OPENAI = { prompt_tokens: 60, completion_tokens: 20, total_tokens: 80 }
const USAGE_GEMINI = { promptTokenCount: 60, candidatesTokenCount: 20, totalTokenCount: 80 }
// A Gemini 3 model signs its first parallel call; a loop must send the part back with it untouched.
const THOUGHT_SIGNATURE = 'YmVuY2gtc2lnbmF0dXJl'

const counters = { openai: 0, gemini: 0, errors: 0 }

function pickToolNames(names: string[]): Decision {
  const weatherName = names.find((name) => name.endsWith(WEATHER_TOOL.name))
  const timeName = names.find((name) => name.endsWith(TIME_TOOL.name))
  if (weatherName === undefined || timeName === undefined) {
    return { kind: 'answer', text: `BENCH-ERROR: tools not declared, got [${names.join(', ')}]` }
  }
  return { kind: 'calls', weatherName, timeName }
}

function checkResults(results: Array<{ key: string; text: string }>, keys: [string, string]): Decision {
  const [weatherKey, timeKey] = keys
  const weather = results.filter((result) => result.key === weatherKey)
  const time = results.filter((result) => result.key === timeKey)
  if (results.length !== 2 || weather.length !== 1 || time.length !== 1) {
    return {
      kind: 'answer',
      text: `BENCH-ERROR: expected one result per call, got [${results.map((result) => result.key).join(', ')}]`,
    }
  }
  if (!weather[0]!.text.includes(WEATHER_MARKER) || !time[0]!.text.includes(TIME_MARKER)) {
    return { kind: 'answer', text: `BENCH-ERROR: tool output lost: ${JSON.stringify(results)}` }
  }
  return { kind: 'answer', text: EXPECTED_ANSWER }
}

function textOf(content: unknown): string {
  return typeof content === 'string' ? content : JSON.stringify(content)
}

interface OpenAIMessage {
  role: string
  content?: unknown
  tool_call_id?: string
}

interface OpenAIRequest {
  model?: string
  messages?: OpenAIMessage[]
  tools?: Array<{ function?: { name?: string } }>
  stream?: boolean
  stream_options?: { include_usage?: boolean }
}

function decideOpenAI(request: OpenAIRequest): Decision {
  const messages = request.messages ?? []
  const lastUser = messages.findLastIndex((message) => message.role === 'user')
  const toolMessages = messages.slice(lastUser + 1).filter((message) => message.role === 'tool')
  if (toolMessages.length === 0) {
    return pickToolNames((request.tools ?? []).map((tool) => tool.function?.name ?? ''))
  }
  return checkResults(
    toolMessages.map((message) => ({ key: message.tool_call_id ?? '', text: textOf(message.content) })),
    [WEATHER_CALL_ID, TIME_CALL_ID],
  )
}

interface OpenAIToolCall {
  id: string
  type: 'function'
  function: { name: string; arguments: string }
}

function openAIToolCalls(decision: Extract<Decision, { kind: 'calls' }>): OpenAIToolCall[] {
  return [
    { id: WEATHER_CALL_ID, name: decision.weatherName },
    { id: TIME_CALL_ID, name: decision.timeName },
  ].map(({ id, name }) => ({
    id,
    type: 'function',
    function: { name, arguments: JSON.stringify(ARGUMENTS) },
  }))
}

function answerOpenAI(request: OpenAIRequest, response: ServerResponse): void {
  const decision = decideOpenAI(request)
  if (decision.kind === 'answer' && decision.text !== EXPECTED_ANSWER) counters.errors++
  const base = { id: `chatcmpl-bench-${counters.openai}`, created: 1_700_000_000, model: request.model ?? '' }
  const finishReason = decision.kind === 'calls' ? 'tool_calls' : 'stop'
  if (request.stream !== true) {
    const message =
      decision.kind === 'calls'
        ? {
            role: 'assistant',
            content: null,
            tool_calls: openAIToolCalls(decision),
          }
        : { role: 'assistant', content: decision.text }
    sendJson(response, {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
      usage: USAGE_OPENAI,
    })
    return
  }
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): unknown => ({
    ...base,
    object: 'chat.completion.chunk',
    choices,
    ...extra,
  })
  const delta =
    decision.kind === 'calls'
      ? { tool_calls: openAIToolCalls(decision).map((call, index) => ({ index, ...call })) }
      : { content: decision.text }
  const events = [
    chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
    chunk([{ index: 0, delta, finish_reason: null }]),
    chunk([{ index: 0, delta: {}, finish_reason: finishReason }]),
  ]
  if (request.stream_options?.include_usage === true) events.push(chunk([], { usage: USAGE_OPENAI }))
  sendSse(response, [...events.map((event) => JSON.stringify(event)), '[DONE]'])
}

interface GeminiPart {
  text?: string
  functionCall?: { name?: string }
  functionResponse?: { name?: string; id?: string; response?: unknown }
}

interface GeminiRequest {
  contents?: Array<{ role?: string; parts?: GeminiPart[] }>
  tools?: Array<{ functionDeclarations?: Array<{ name?: string }> }>
}

function decideGemini(request: GeminiRequest): Decision {
  const contents = request.contents ?? []
  const last = contents.at(-1)
  const responses = (last?.parts ?? []).flatMap((part) =>
    part.functionResponse === undefined ? [] : [part.functionResponse],
  )
  const names = (request.tools ?? []).flatMap((tool) =>
    (tool.functionDeclarations ?? []).map((declaration) => declaration.name ?? ''),
  )
  const decision = pickToolNames(names)
  if (responses.length === 0) return decision
  if (decision.kind === 'answer') return decision
  // The model turn must come back verbatim, signature included, or Gemini 3 rejects the request.
  const modelTurn = contents.at(-2)
  if (
    modelTurn?.parts?.[0] === undefined ||
    !JSON.stringify(modelTurn.parts[0]).includes(THOUGHT_SIGNATURE)
  ) {
    return { kind: 'answer', text: 'BENCH-ERROR: the model turn lost its thoughtSignature' }
  }
  return checkResults(
    responses.map((functionResponse) => ({
      key: functionResponse.name ?? '',
      text: textOf(functionResponse.response),
    })),
    [decision.weatherName, decision.timeName],
  )
}

function answerGemini(
  request: GeminiRequest,
  model: string,
  streaming: boolean,
  response: ServerResponse,
): void {
  const decision = decideGemini(request)
  if (decision.kind === 'answer' && decision.text !== EXPECTED_ANSWER) counters.errors++
  const parts =
    decision.kind === 'calls'
      ? [
          {
            functionCall: { name: decision.weatherName, args: ARGUMENTS },
            thoughtSignature: THOUGHT_SIGNATURE,
          },
          { functionCall: { name: decision.timeName, args: ARGUMENTS } },
        ]
      : [{ text: decision.text }]
  const body = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: USAGE_GEMINI,
    modelVersion: model,
    responseId: `bench-${counters.gemini}`,
  }
  if (streaming) sendSse(response, [JSON.stringify(body)])
  else sendJson(response, body)
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
    answerOpenAI(body as OpenAIRequest, response)
    return
  }
  const gemini = GEMINI_PATH.exec(url.pathname)
  if (gemini !== null) {
    counters.gemini++
    answerGemini(body as GeminiRequest, gemini[1]!, gemini[2] === 'streamGenerateContent', response)
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
