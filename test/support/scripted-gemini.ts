// A local Gemini REST endpoint that plays a script and records every request body. The real
// `@google/genai` SDK is pointed at it with `httpOptions: { baseUrl, apiVersion: 'v1beta' }`.
//
// Routes (what the SDK calls):
//   Gemini API  POST /{version}/models/{model}:generateContent
//               POST /{version}/models/{model}:streamGenerateContent?alt=sse
//   Vertex AI   POST /{version}/projects/{project}/locations/{location}/publishers/google/models/{model}:…
// Like Gemini, it answers 400 when a request breaks its rules: a content without parts, a part that is
// only `{ text: '' }`, a function-call turn not followed by one user turn with as many `functionResponse` parts, or a
// `functionCall` part it sent with a `thoughtSignature` coming back without it, or a function's `parameters`
// outside Gemini's Schema subset (a node without a `type`: "type: must be specified", an unknown key …).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { GoogleGenAI } from '@google/genai'
import { geminiSubsetProblems } from './gemini-subset.js'

/** A JSON object as it goes over the wire. */
export type JsonObject = { [key: string]: unknown }

/** One part of a content, as Gemini's REST API spells it. */
export interface GeminiPartJson {
  text?: string
  thought?: boolean
  thoughtSignature?: string
  functionCall?: { id?: string; name: string; args?: JsonObject }
  functionResponse?: { id?: string; name: string; response: JsonObject }
  [key: string]: unknown
}

/** One content (turn) on the wire. */
export interface GeminiContentJson {
  role?: string
  parts?: GeminiPartJson[]
}

/** A request body as the SDK sends it. */
export interface GeminiRequestJson {
  contents: GeminiContentJson[]
  tools?: Array<{
    functionDeclarations?: Array<{ name: string; description?: string; parameters?: JsonObject }>
  }>
  systemInstruction?: GeminiContentJson
  generationConfig?: JsonObject
  [key: string]: unknown
}

/** A response body (or one streamed chunk) as Gemini sends it. */
export interface GeminiResponseJson {
  candidates?: Array<{ content?: GeminiContentJson; finishReason?: string; index?: number }>
  usageMetadata?: {
    promptTokenCount?: number
    candidatesTokenCount?: number
    thoughtsTokenCount?: number
    totalTokenCount?: number
  }
  modelVersion?: string
  promptFeedback?: JsonObject
  [key: string]: unknown
}

/** What the server saw, for assertions. */
export interface RecordedGeminiRequest {
  api: 'gemini' | 'vertex'
  apiVersion: string
  model: string
  /** Vertex only. */
  project?: string
  location?: string
  stream: boolean
  /** The full path and query, e.g. `/v1beta/models/m:streamGenerateContent?alt=sse`. */
  url: string
  headers: Record<string, string | string[] | undefined>
  /** The body exactly as sent. */
  rawBody: string
  body: GeminiRequestJson
}

/** One scripted answer. */
export type GeminiReply =
  /** A whole response; to a streaming request it is sent as a single `data:` event. */
  | { kind: 'response'; body: GeminiResponseJson; delayMs?: number }
  /** `data:` events, one per chunk, `delayMs` apart. Only for streaming requests. */
  | { kind: 'stream'; chunks: GeminiResponseJson[]; delayMs?: number }
  /** An HTTP error with Gemini's error body. */
  | {
      kind: 'error'
      status: number
      message?: string
      headers?: Record<string, string>
      details?: JsonObject[]
    }
  /** Never answers; the request ends only when the client goes away. */
  | { kind: 'hang' }

/** What to answer each request with: a list played in order, or a function of the request. */
export type GeminiScript =
  | ReadonlyArray<GeminiReply | ((request: RecordedGeminiRequest) => GeminiReply)>
  | ((request: RecordedGeminiRequest, index: number) => GeminiReply | Promise<GeminiReply>)

/** A running scripted server. */
export interface ScriptedGemini extends AsyncDisposable {
  /** `http://127.0.0.1:<port>` — pass as `httpOptions.baseUrl`. */
  baseUrl: string
  /** Every request, in arrival order (also the ones answered with an error). */
  requests: RecordedGeminiRequest[]
  /** How many clients went away before their answer ended (aborts). */
  disconnects(): number
  close(): Promise<void>
}

/**
 * A `@google/genai` client of the Gemini API at `baseUrl` (a scripted server's), with the `v1beta` API
 * version the loop's features need and a test key.
 *
 * @example
 * const client = createClient({ genai: genaiFor(gemini.baseUrl), model: 'gemini-2.5-flash' })
 */
export function genaiFor(baseUrl: string): GoogleGenAI {
  return new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl, apiVersion: 'v1beta' } })
}

const GEMINI_ROUTE = /^\/([^/]+)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/
const VERTEX_ROUTE =
  /^\/([^/]+)\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/google\/models\/([^/:]+):(generateContent|streamGenerateContent)$/

/**
 * Starts the server on a free loopback port.
 *
 * @example
 * await using gemini = await startScriptedGemini({ script: [modelReply([{ text: 'Hi' }])] })
 * const genai = genaiFor(gemini.baseUrl)
 */
export async function startScriptedGemini(options: { script: GeminiScript }): Promise<ScriptedGemini> {
  const requests: RecordedGeminiRequest[] = []
  const sockets = new Set<Socket>()
  // functionCall parts this server sent with a signature: the call's JSON → the signature.
  const issuedSignatures = new Map<string, string>()
  let disconnects = 0

  async function nextReply(request: RecordedGeminiRequest, index: number): Promise<GeminiReply> {
    const script = options.script
    if (typeof script === 'function') return script(request, index)
    const step = script[index]
    // A 400, so that the loop does not retry a test's mistake.
    if (step === undefined)
      return { kind: 'error', status: 400, message: `scripted server: the script has no step ${index + 1}` }
    return typeof step === 'function' ? step(request) : step
  }

  async function handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const url = new URL(incoming.url ?? '/', 'http://localhost')
    const rawBody = await readBody(incoming)
    const route = matchRoute(url.pathname)
    if (incoming.method !== 'POST' || route === undefined) {
      sendError(outgoing, { status: 404, message: `no route for ${incoming.method} ${url.pathname}` })
      return
    }
    let body: GeminiRequestJson
    try {
      body = JSON.parse(rawBody) as GeminiRequestJson
    } catch {
      sendError(outgoing, { status: 400, message: 'Invalid JSON payload received.' })
      return
    }
    const recorded: RecordedGeminiRequest = {
      ...route,
      url: `${url.pathname}${url.search}`,
      headers: incoming.headers,
      rawBody,
      body,
    }
    const index = requests.length
    requests.push(recorded)
    if (route.stream && url.searchParams.get('alt') !== 'sse') {
      sendError(outgoing, { status: 400, message: 'streamGenerateContent is served as SSE only (alt=sse)' })
      return
    }
    const problem = checkRequest(body, issuedSignatures)
    if (problem !== undefined) {
      sendError(outgoing, { status: 400, message: problem })
      return
    }
    const reply = await nextReply(recorded, index)
    await send({ outgoing, incoming, reply, stream: route.stream, issuedSignatures })
  }

  const server = createServer((incoming, outgoing) => {
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) disconnects += 1
    })
    handle(incoming, outgoing).catch((error: unknown) => {
      if (!outgoing.headersSent) sendError(outgoing, { status: 500, message: String(error) })
      else outgoing.destroy()
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  async function close(): Promise<void> {
    for (const socket of sockets) socket.destroy()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    disconnects: () => disconnects,
    close,
    [Symbol.asyncDispose]: close,
  }
}

/**
 * A whole model answer with these parts.
 *
 * @example
 * modelReply([{ functionCall: { name: 'add', args: { a: 1, b: 2 } }, thoughtSignature: 'c2ln' }])
 */
export function modelReply(
  parts: GeminiPartJson[],
  options: { finishReason?: string; usage?: GeminiResponseJson['usageMetadata'] } = {},
): GeminiReply {
  return { kind: 'response', body: responseBody(parts, options) }
}

/**
 * A streamed answer: one chunk per entry, each with these parts; the last chunk carries `finishReason`
 * and the usage, as Gemini's do.
 *
 * @example
 * streamReply([[{ text: 'Hel' }], [{ text: 'lo' }], [{ text: '', thoughtSignature: 'c2ln' }]])
 */
export function streamReply(
  chunks: GeminiPartJson[][],
  options: { finishReason?: string; usage?: GeminiResponseJson['usageMetadata']; delayMs?: number } = {},
): GeminiReply {
  const bodies = chunks.map((parts, index): GeminiResponseJson => {
    const last = index === chunks.length - 1
    return {
      candidates: [
        {
          content: { role: 'model', parts },
          ...(last ? { finishReason: options.finishReason ?? 'STOP' } : {}),
          index: 0,
        },
      ],
      ...(last && options.usage !== undefined ? { usageMetadata: options.usage } : {}),
      modelVersion: 'scripted-gemini',
    }
  })
  return {
    kind: 'stream',
    chunks: bodies,
    ...(options.delayMs === undefined ? {} : { delayMs: options.delayMs }),
  }
}

/** The response body of {@link modelReply}. */
export function responseBody(
  parts: GeminiPartJson[],
  options: { finishReason?: string; usage?: GeminiResponseJson['usageMetadata'] } = {},
): GeminiResponseJson {
  return {
    candidates: [
      { content: { role: 'model', parts }, finishReason: options.finishReason ?? 'STOP', index: 0 },
    ],
    usageMetadata: options.usage ?? { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'scripted-gemini',
  }
}

function matchRoute(
  pathname: string,
):
  | Pick<RecordedGeminiRequest, 'api' | 'apiVersion' | 'model' | 'project' | 'location' | 'stream'>
  | undefined {
  const gemini = GEMINI_ROUTE.exec(pathname)
  if (gemini !== null) {
    const [, apiVersion = '', model = '', method] = gemini
    return {
      api: 'gemini',
      apiVersion,
      model: decodeURIComponent(model),
      stream: method === 'streamGenerateContent',
    }
  }
  const vertex = VERTEX_ROUTE.exec(pathname)
  if (vertex !== null) {
    const [, apiVersion = '', project = '', location = '', model = '', method] = vertex
    return {
      api: 'vertex',
      apiVersion,
      project: decodeURIComponent(project),
      location: decodeURIComponent(location),
      model: decodeURIComponent(model),
      stream: method === 'streamGenerateContent',
    }
  }
  return undefined
}

function readBody(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    incoming.on('error', reject)
  })
}

/** Gemini's own checks on a function-calling conversation; the message is the one Gemini gives. */
function checkRequest(
  body: GeminiRequestJson,
  issuedSignatures: ReadonlyMap<string, string>,
): string | undefined {
  if (!Array.isArray(body.contents) || body.contents.length === 0) return '* contents: must not be empty'
  const schemaProblems = (body.tools ?? []).flatMap((tool, toolIndex) =>
    (tool.functionDeclarations ?? []).flatMap((declaration, index) =>
      declaration.parameters === undefined
        ? []
        : geminiSubsetProblems(
            fromWire(declaration.parameters),
            `GenerateContentRequest.tools[${toolIndex}].function_declarations[${index}].parameters`,
          ),
    ),
  )
  if (schemaProblems.length > 0) return schemaProblems.map((problem) => `* ${problem}`).join('\n')
  for (let index = 0; index < body.contents.length; index++) {
    const content = body.contents[index]
    const parts = content?.parts
    if (!Array.isArray(parts) || parts.length === 0) {
      return `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.`
    }
    if (parts.some((part) => part.text === '' && Object.keys(part).length === 1)) {
      return 'Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again.'
    }
    const calls = parts.filter((part) => part.functionCall !== undefined)
    if (content?.role !== 'model' || calls.length === 0) continue
    for (const part of calls) {
      const signature = issuedSignatures.get(callKey(part))
      if (signature !== undefined && part.thoughtSignature !== signature) {
        return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${part.functionCall?.name}\` , position ${index + 1}.`
      }
    }
    const answers = (body.contents[index + 1]?.parts ?? []).filter(
      (part) => part.functionResponse !== undefined,
    )
    if (index + 1 < body.contents.length && answers.length !== calls.length) {
      return 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.'
    }
  }
  return undefined
}

// The API reads a type in any case (the SDK sends `OBJECT`) and int64 counts as strings (`"3"`).
function fromWire(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromWire)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) => {
      if (key === 'type' && typeof entry === 'string') return [key, entry.toLowerCase()]
      if (
        /^(min|max)(Items|Length|Properties)$/.test(key) &&
        typeof entry === 'string' &&
        /^\d+$/.test(entry)
      ) {
        return [key, Number(entry)]
      }
      // Property names and JSON values are data, not schema: only schema keys are read on.
      if (key === 'properties' && typeof entry === 'object' && entry !== null) {
        return [
          key,
          Object.fromEntries(Object.entries(entry).map(([name, child]) => [name, fromWire(child)])),
        ]
      }
      if (key === 'items' || key === 'anyOf') return [key, fromWire(entry)]
      return [key, entry]
    }),
  )
}

function callKey(part: GeminiPartJson): string {
  const call = part.functionCall
  return JSON.stringify([call?.id ?? null, call?.name ?? null, call?.args ?? null])
}

function remember(body: GeminiResponseJson, issuedSignatures: Map<string, string>): void {
  for (const part of body.candidates?.[0]?.content?.parts ?? []) {
    if (part.functionCall !== undefined && typeof part.thoughtSignature === 'string') {
      issuedSignatures.set(callKey(part), part.thoughtSignature)
    }
  }
}

async function send(options: {
  outgoing: ServerResponse
  incoming: IncomingMessage
  reply: GeminiReply
  stream: boolean
  issuedSignatures: Map<string, string>
}): Promise<void> {
  const { outgoing, incoming, reply, stream, issuedSignatures } = options
  switch (reply.kind) {
    case 'hang':
      await new Promise<void>((resolve) => incoming.socket.once('close', () => resolve()))
      return
    case 'error':
      sendError(outgoing, reply)
      return
    case 'response':
    case 'stream': {
      const chunks = reply.kind === 'response' ? [reply.body] : reply.chunks
      for (const chunk of chunks) remember(chunk, issuedSignatures)
      if (!stream) {
        if (reply.kind === 'stream') {
          sendError(outgoing, { status: 500, message: 'script mismatch: a stream reply to generateContent' })
          return
        }
        await wait(reply.delayMs)
        outgoing.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' })
        outgoing.end(JSON.stringify(reply.body))
        return
      }
      outgoing.writeHead(200, { 'content-type': 'text/event-stream' })
      outgoing.flushHeaders()
      for (const chunk of chunks) {
        await wait(reply.delayMs)
        if (outgoing.destroyed) return
        outgoing.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`)
      }
      outgoing.end()
      return
    }
    default: {
      const unreachable: never = reply
      throw new Error(`unknown reply ${JSON.stringify(unreachable)}`)
    }
  }
}

function sendError(
  outgoing: ServerResponse,
  error: { status: number; message?: string; headers?: Record<string, string>; details?: JsonObject[] },
): void {
  const statusText: Record<number, string> = {
    400: 'INVALID_ARGUMENT',
    404: 'NOT_FOUND',
    429: 'RESOURCE_EXHAUSTED',
    500: 'INTERNAL',
    503: 'UNAVAILABLE',
  }
  outgoing.writeHead(error.status, { 'content-type': 'application/json; charset=UTF-8', ...error.headers })
  outgoing.end(
    JSON.stringify({
      error: {
        code: error.status,
        message: error.message ?? `scripted error ${error.status}`,
        status: statusText[error.status] ?? 'UNKNOWN',
        ...(error.details === undefined ? {} : { details: error.details }),
      },
    }),
  )
}

function wait(ms: number | undefined): Promise<void> {
  return ms === undefined || ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms))
}
