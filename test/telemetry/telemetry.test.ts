import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createOpenAI } from '@ai-sdk/openai'
import type { GoogleGenAI } from '@google/genai'
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { ConfigError, ModelCallError } from '../../src/errors.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { explode } from '../support/explode-tool.js'
import { genaiFor, modelReply, type ScriptedGemini, startScriptedGemini } from '../support/scripted-gemini.js'
import { openaiChatProtocol } from '../support/scripted-openai.js'
import { type Script, type ScriptedServer, startScriptedServer } from '../support/scripted-server.js'
import { describeSpan, type RecordingTelemetry, startRecording } from './support.js'

let recording: RecordingTelemetry
const closers: Array<() => Promise<void>> = []

beforeAll(() => {
  recording = startRecording({ global: true })
})

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
  recording.reset()
})

afterAll(async () => {
  await recording.shutdown()
})

const weather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  execute: ({ city }) => `Sunny in ${String(city)}.`,
})

async function toolkitOf(options: Parameters<typeof createToolkit>[0]): Promise<Toolkit> {
  const toolkit = await createToolkit({ logger: { warn: () => {} }, ...options })
  closers.push(() => toolkit.close())
  return toolkit
}

async function openai(script: Script): Promise<ScriptedServer> {
  const server = await startScriptedServer({ protocol: openaiChatProtocol, script })
  closers.push(() => server.close())
  return server
}

async function gemini(script: Parameters<typeof startScriptedGemini>[0]['script']): Promise<ScriptedGemini> {
  const server = await startScriptedGemini({ script })
  closers.push(() => server.close())
  return server
}

function openaiModel(server: ScriptedServer) {
  return createOpenAI({ baseURL: server.url, apiKey: 'test-key' }).chat('gpt-scripted')
}

function genaiOf(server: ScriptedGemini): GoogleGenAI {
  return genaiFor(server.baseUrl)
}

/** The spans of one run, parents first, siblings by start time and name. */
function pinned(spans: readonly ReadableSpan[]): Array<Record<string, unknown>> {
  const depth = (span: ReadableSpan): number => {
    let count = 0
    let parent = span.parentSpanContext?.spanId
    while (parent !== undefined) {
      count++
      parent = spans.find((each) => each.spanContext().spanId === parent)?.parentSpanContext?.spanId
    }
    return count
  }
  return [...spans]
    .sort((a, b) => depth(a) - depth(b) || a.name.localeCompare(b.name))
    .map((span) => describeSpan(span, spans))
}

const twoToolsOpenAI: Script = [
  {
    type: 'reply',
    toolCalls: [
      { id: 'call-1', name: 'get_weather', arguments: '{"city":"Chennai"}' },
      { id: 'call-2', name: 'explode', arguments: '{}' },
    ],
    usage: { input: 10, output: 5 },
  },
  { type: 'reply', text: 'Sunny; the other tool failed.', usage: { input: 20, output: 7 } },
]

const twoToolsGemini = [
  modelReply(
    [
      { functionCall: { id: 'call-1', name: 'get_weather', args: { city: 'Chennai' } } },
      { functionCall: { id: 'call-2', name: 'explode', args: {} } },
    ],
    { usage: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 } },
  ),
  modelReply([{ text: 'Sunny; the other tool failed.' }], {
    usage: { promptTokenCount: 20, candidatesTokenCount: 7, totalTokenCount: 27 },
  }),
]

function expectedSpans(options: {
  provider: string
  model: string
  responseModel: string
  responseId: string | undefined
}): Array<Record<string, unknown>> {
  const common = { 'gen_ai.provider.name': options.provider, 'gen_ai.request.model': options.model }
  const response = {
    'gen_ai.response.model': options.responseModel,
    ...(options.responseId === undefined ? {} : { 'gen_ai.response.id': options.responseId }),
  }
  const tool = (name: string, id: string, description: string) => ({
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': name,
    'gen_ai.tool.call.id': id,
    'gen_ai.tool.type': 'function',
    'gen_ai.tool.description': description,
  })
  return [
    {
      name: 'invoke_agent',
      kind: SpanKind.INTERNAL,
      parent: null,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        ...common,
        'gen_ai.usage.input_tokens': 30,
        'gen_ai.usage.output_tokens': 12,
        'gen_ai.response.finish_reasons': ['stop'],
        'toolnexus.run.turns': 2,
        'toolnexus.run.status': 'done',
      },
      status: { code: SpanStatusCode.UNSET },
    },
    {
      name: `chat ${options.model}`,
      kind: SpanKind.CLIENT,
      parent: 'invoke_agent',
      attributes: {
        'gen_ai.operation.name': 'chat',
        ...common,
        'gen_ai.usage.input_tokens': 10,
        'gen_ai.usage.output_tokens': 5,
        'gen_ai.response.finish_reasons': ['tool_calls'],
        ...response,
      },
      status: { code: SpanStatusCode.UNSET },
    },
    {
      name: `chat ${options.model}`,
      kind: SpanKind.CLIENT,
      parent: 'invoke_agent',
      attributes: {
        'gen_ai.operation.name': 'chat',
        ...common,
        'gen_ai.usage.input_tokens': 20,
        'gen_ai.usage.output_tokens': 7,
        'gen_ai.response.finish_reasons': ['stop'],
        ...response,
      },
      status: { code: SpanStatusCode.UNSET },
    },
    {
      name: 'execute_tool explode',
      kind: SpanKind.INTERNAL,
      parent: 'invoke_agent',
      attributes: { ...tool('explode', 'call-2', 'Always throws.'), 'error.type': 'tool_error' },
      status: { code: SpanStatusCode.ERROR },
    },
    {
      name: 'execute_tool get_weather',
      kind: SpanKind.INTERNAL,
      parent: 'invoke_agent',
      attributes: tool('get_weather', 'call-1', 'Current weather for a city.'),
      status: { code: SpanStatusCode.UNSET },
    },
  ]
}

/** Two chat spans come out with equal names: order them by their token counts, as the script sent them. */
function byTurn(spans: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  const tokens = (span: Record<string, unknown>) =>
    Number((span.attributes as Record<string, unknown>)['gen_ai.usage.input_tokens'] ?? 0)
  return spans.sort((a, b) =>
    a.name === b.name && String(a.name).startsWith('chat') ? tokens(a) - tokens(b) : 0,
  )
}

describe('telemetry: spans by the GenAI semantic conventions', () => {
  it('AI SDK transport: a run with two tools, one failing, is one invoke_agent span over its chat and execute_tool spans', async () => {
    const server = await openai(twoToolsOpenAI)
    const toolkit = await toolkitOf({ tools: [weather, explode] })
    const client = createClient({ model: openaiModel(server), telemetry: {} })

    const result = await client.run('Weather in Chennai, then explode.', { toolkit })

    expect(result.toolCalls.map((call) => call.isError)).toStrictEqual([false, true])
    expect(byTurn(pinned(recording.spans()))).toStrictEqual(
      expectedSpans({
        provider: 'openai',
        model: 'gpt-scripted',
        responseModel: 'gpt-scripted',
        responseId: 'chatcmpl-scripted',
      }),
    )
  })

  it('@google/genai transport: the same spans, with gcp.gemini as the provider', async () => {
    const server = await gemini(twoToolsGemini)
    const toolkit = await toolkitOf({ tools: [weather, explode] })
    const client = createClient({ genai: genaiOf(server), model: 'gemini-2.5-flash', telemetry: {} })

    await client.run('Weather in Chennai, then explode.', { toolkit })

    expect(byTurn(pinned(recording.spans()))).toStrictEqual(
      expectedSpans({
        provider: 'gcp.gemini',
        model: 'gemini-2.5-flash',
        responseModel: 'scripted-gemini',
        responseId: undefined,
      }),
    )
  })

  it('a stream makes the same spans as a run', async () => {
    const server = await openai(twoToolsOpenAI)
    const toolkit = await toolkitOf({ tools: [weather, explode] })
    const client = createClient({ model: openaiModel(server), telemetry: {} })

    const stream = client.stream('Weather in Chennai, then explode.', { toolkit })
    for await (const _event of stream) {
      // read to the end
    }

    const spans = byTurn(pinned(recording.spans()))
    // The same tree: names, parents and statuses.
    expect(spans.map((span) => [span.name, span.parent, span.status])).toStrictEqual(
      expectedSpans({
        provider: 'openai',
        model: 'gpt-scripted',
        responseModel: 'gpt-scripted',
        responseId: undefined,
      }).map((span) => [span.name, span.parent, span.status]),
    )
  })

  it('nests under the span active where the run starts, and tool code runs inside its execute_tool span', async () => {
    const server = await openai(twoToolsOpenAI)
    const seen: Array<string | undefined> = []
    const probe = defineTool({
      name: 'get_weather',
      description: 'Current weather for a city.',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      execute: () => {
        seen.push(trace.getActiveSpan()?.spanContext().spanId)
        return 'Sunny.'
      },
    })
    const toolkit = await toolkitOf({ tools: [probe, explode] })
    const client = createClient({ model: openaiModel(server), telemetry: {} })
    const tracer = trace.getTracer('the-app')

    await tracer.startActiveSpan('POST /api/chat', async (request) => {
      await client.run('Weather?', { toolkit })
      request.end()
    })

    const spans = recording.spans()
    const described = pinned(spans)
    expect(described.map((span) => [span.name, span.parent])).toStrictEqual([
      ['POST /api/chat', null],
      ['invoke_agent', 'POST /api/chat'],
      ['chat gpt-scripted', 'invoke_agent'],
      ['chat gpt-scripted', 'invoke_agent'],
      ['execute_tool explode', 'invoke_agent'],
      ['execute_tool get_weather', 'invoke_agent'],
    ])
    const toolSpan = spans.find((span) => span.name === 'execute_tool get_weather')
    expect(seen).toStrictEqual([toolSpan?.spanContext().spanId])
    // One trace from the request down.
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1)
  })

  it('a failed model call is an error span with the HTTP status as error.type, and so is the run', async () => {
    const server = await openai([{ type: 'error', status: 400, message: 'bad request' }])
    const client = createClient({ model: openaiModel(server), telemetry: {} })

    await expect(client.run('Hi')).rejects.toThrow(ModelCallError)

    expect(pinned(recording.spans())).toStrictEqual([
      {
        name: 'invoke_agent',
        kind: SpanKind.INTERNAL,
        parent: null,
        attributes: {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-scripted',
          'error.type': '400',
        },
        status: { code: SpanStatusCode.ERROR },
      },
      {
        name: 'chat gpt-scripted',
        kind: SpanKind.CLIENT,
        parent: 'invoke_agent',
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-scripted',
          'error.type': '400',
        },
        status: { code: SpanStatusCode.ERROR },
      },
    ])
  })

  it('each attempt of a retried model call is its own chat span', async () => {
    const server = await openai([
      { type: 'error', status: 503, message: 'busy' },
      { type: 'reply', text: 'Hello.' },
    ])
    const client = createClient({
      model: openaiModel(server),
      retries: { maxRetries: 1, initialDelayMs: 1 },
      telemetry: {},
    })

    await client.run('Hi')

    expect(
      pinned(recording.spans()).map((span) => [
        span.name,
        (span.attributes as Record<string, unknown>)['error.type'],
      ]),
    ).toStrictEqual([
      ['invoke_agent', undefined],
      ['chat gpt-scripted', '503'],
      ['chat gpt-scripted', undefined],
    ])
  })
})

describe('telemetry: metrics', () => {
  it('records call durations, token usage and tool durations with their error types', async () => {
    const server = await openai(twoToolsOpenAI)
    const toolkit = await toolkitOf({ tools: [weather, explode] })
    // A meter of its own: the global one keeps every earlier test's figures.
    const own = startRecording({ global: false })
    closers.push(() => own.shutdown())
    const client = createClient({
      model: openaiModel(server),
      telemetry: { meter: own.meterProvider.getMeter('t') },
    })

    await client.run('Weather in Chennai, then explode.', { toolkit })

    const common = { 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-scripted' }
    const chat = await own.histogram('gen_ai.client.operation.duration')
    expect(chat.map((point) => [point.attributes, point.value.count])).toStrictEqual([
      [{ 'gen_ai.operation.name': 'chat', ...common, 'gen_ai.response.model': 'gpt-scripted' }, 2],
    ])
    const tokens = await own.histogram('gen_ai.client.token.usage')
    expect(
      tokens.map((point) => [point.attributes['gen_ai.token.type'], point.value.count, point.value.sum]),
    ).toStrictEqual([
      ['input', 2, 30],
      ['output', 2, 12],
    ])
    const tools = await own.histogram('gen_ai.execute_tool.duration')
    expect(tools.map((point) => [point.attributes, point.value.count])).toStrictEqual([
      [
        {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'get_weather',
          'gen_ai.tool.type': 'function',
        },
        1,
      ],
      [
        {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'explode',
          'gen_ai.tool.type': 'function',
          'error.type': 'tool_error',
        },
        1,
      ],
    ])
    const runs = await own.histogram('gen_ai.invoke_agent.duration')
    expect(runs.map((point) => [point.attributes, point.value.count])).toStrictEqual([
      [{ 'gen_ai.operation.name': 'invoke_agent', ...common }, 1],
    ])
    for (const point of [...chat, ...tools, ...runs]) expect(point.value.sum).toBeGreaterThanOrEqual(0)
  })
})

describe('telemetry: content', () => {
  const SECRET = 'tn-telemetry-secret-4f9a2c'
  let echo: Server
  let echoUrl = ''

  beforeAll(async () => {
    // Answers with the Authorization header it got, as a careless debug endpoint would.
    echo = createServer((request, response) => {
      response.setHeader('content-type', 'text/plain')
      response.end(`you sent ${String(request.headers.authorization)}`)
    })
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve))
    echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`
    process.env.TN_TELEMETRY_TOKEN = SECRET
  })

  afterAll(async () => {
    delete process.env.TN_TELEMETRY_TOKEN
    await new Promise<void>((resolve) => echo.close(() => resolve()))
  })

  function everything(spans: readonly ReadableSpan[]): string {
    return JSON.stringify(
      spans.map((span) => ({
        name: span.name,
        attributes: span.attributes,
        status: span.status,
        events: span.events,
      })),
    )
  }

  it('recordContent records the prompt, the answers, arguments and results, with every configured secret masked', async () => {
    // The model echoes the secret back in its arguments and in its text: content a span would record.
    const server = await openai([
      {
        type: 'reply',
        text: `Calling with ${SECRET}.`,
        toolCalls: [
          {
            id: 'call-1',
            name: 'whoami',
            arguments: JSON.stringify({ token: SECRET, encoded: Buffer.from(SECRET).toString('base64') }),
          },
          { id: 'call-2', name: 'explode', arguments: '{}' },
        ],
      },
      { type: 'reply', text: `The server saw Bearer ${SECRET}.` },
    ])
    const toolkit = await toolkitOf({
      tools: [explode],
      http: [
        {
          name: 'whoami',
          description: 'Asks the server who we are.',
          method: 'GET',
          url: `${echoUrl}/whoami`,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the HTTP tool's own ${VAR} syntax.
          headers: { authorization: 'Bearer ${TN_TELEMETRY_TOKEN}' },
          inputSchema: {
            type: 'object',
            properties: { token: { type: 'string' }, encoded: { type: 'string' } },
          },
        },
      ],
    })
    const client = createClient({
      model: openaiModel(server),
      system: 'Be brief.',
      telemetry: { recordContent: true },
    })

    const result = await client.run('Who am I?', { toolkit })

    expect(result.toolCalls[0]?.isError).toBe(false)
    const spans = recording.spans()
    expect(everything(spans)).not.toContain(SECRET)
    expect(everything(spans)).not.toContain(Buffer.from(SECRET).toString('base64'))
    const attributes = (name: string) => spans.find((span) => span.name === name)?.attributes ?? {}
    expect(attributes('invoke_agent')['gen_ai.input.messages']).toBe(
      JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Who am I?' }] }]),
    )
    expect(attributes('invoke_agent')['gen_ai.system_instructions']).toBe(
      JSON.stringify([{ type: 'text', content: 'Be brief.' }]),
    )
    expect(attributes('invoke_agent')['gen_ai.output.messages']).toBe(
      JSON.stringify([
        {
          role: 'assistant',
          parts: [{ type: 'text', content: 'The server saw ***.' }],
          finish_reason: 'stop',
        },
      ]),
    )
    expect(attributes('execute_tool whoami')['gen_ai.tool.call.arguments']).toBe(
      '{"token":"***","encoded":"***"}',
    )
    expect(attributes('execute_tool whoami')['gen_ai.tool.call.result']).toBe('you sent ***')
    expect(attributes('execute_tool explode')['gen_ai.tool.call.result']).toBe(
      'Tool "explode" failed: kaboom',
    )
    const firstChat = spans.find(
      (span) =>
        span.name === 'chat gpt-scripted' &&
        String(span.attributes['gen_ai.output.messages']).includes('tool_call'),
    )
    expect(JSON.parse(String(firstChat?.attributes['gen_ai.output.messages']))).toStrictEqual([
      {
        role: 'assistant',
        parts: [
          { type: 'text', content: 'Calling with ***.' },
          { type: 'tool_call', id: 'call-1', name: 'whoami', arguments: { token: '***', encoded: '***' } },
          { type: 'tool_call', id: 'call-2', name: 'explode', arguments: {} },
        ],
        finish_reason: 'tool_calls',
      },
    ])
  })

  it('without recordContent no span carries a prompt, an argument, a result or an error message', async () => {
    const server = await openai([
      {
        type: 'reply',
        toolCalls: [{ id: 'call-1', name: 'explode', arguments: JSON.stringify({ note: 'private words' }) }],
      },
      { type: 'reply', text: 'private answer' },
    ])
    const toolkit = await toolkitOf({ tools: [explode] })
    const client = createClient({ model: openaiModel(server), system: 'private system', telemetry: {} })

    await client.run('private prompt', { toolkit })

    const text = everything(recording.spans())
    for (const word of ['private', 'kaboom', 'gen_ai.tool.call.arguments', 'gen_ai.input.messages']) {
      expect(text).not.toContain(word)
    }
  })
})

describe('telemetry: when it is off, and beside the AI SDK', () => {
  it('a client without telemetry makes no span, even with a global tracer provider registered', async () => {
    const server = await openai(twoToolsOpenAI)
    const toolkit = await toolkitOf({ tools: [weather, explode] })
    const client = createClient({ model: openaiModel(server) })

    await client.run('Weather in Chennai, then explode.', { toolkit })

    expect(recording.spans()).toStrictEqual([])
  })

  it('the AI SDK adds no span of its own: the transport calls the model directly, so nothing is counted twice', async () => {
    const server = await openai(twoToolsOpenAI)
    const toolkit = await toolkitOf({ tools: [weather, explode] })
    const client = createClient({ model: openaiModel(server), telemetry: {} })

    await client.run('Weather in Chennai, then explode.', { toolkit })

    const names = recording.spans().map((span) => span.name)
    expect(names.filter((name) => name.startsWith('ai.'))).toStrictEqual([])
    expect(names).toHaveLength(5)
  })

  it('uses the tracer and meter it is given instead of the globals', async () => {
    const own = startRecording({ global: false })
    closers.push(() => own.shutdown())
    const server = await openai([{ type: 'reply', text: 'Hi.' }])
    const client = createClient({
      model: openaiModel(server),
      telemetry: { tracer: own.tracerProvider.getTracer('mine'), meter: own.meterProvider.getMeter('mine') },
    })

    await client.run('Hi')

    expect(own.spans().map((span) => span.name)).toStrictEqual(['chat gpt-scripted', 'invoke_agent'])
    expect(recording.spans()).toStrictEqual([])
    expect((await own.histogram('gen_ai.invoke_agent.duration')).length).toBe(1)
  })

  it('refuses telemetry options of the wrong shape', () => {
    const model = createOpenAI({ baseURL: 'http://127.0.0.1:9', apiKey: 'k' }).chat('m')
    expect(() => createClient({ model, telemetry: { tracer: {} as never } })).toThrow(ConfigError)
    expect(() => createClient({ model, telemetry: { recordContent: 'yes' as never } })).toThrow(ConfigError)
  })
})
