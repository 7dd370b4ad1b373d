import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { EdgeVM } from '@edge-runtime/vm'
import { convertToModelMessages, type UIMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterAll, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { createChatHandler } from '../../src/next/index.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { add } from '../support/add-tool.js'
import { addingStep, step, textParts } from './mock-model-steps.js'
import { aiMajor, chatThrough, sseChunks, userMessage } from './ui-stream.js'

const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Looks up an order.',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  execute: () => {
    throw new Error('Order service unavailable')
  },
})
/** What defineTool makes of the throw. */
const ORDER_ERROR = 'Tool "lookup_order" failed: Order service unavailable'
const toolkit = await createToolkit({ tools: [add, lookupOrder] })
afterAll(() => toolkit.close())

/** A model that calls `add` and `lookup_order`, then answers; it records every prompt it gets. */
function toolUsingModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doStream: [
      step(
        [
          ...textParts('t1', 'Let me check.'),
          { type: 'tool-call', toolCallId: 'call-add', toolName: 'add', input: '{"a":2,"b":3}' },
          { type: 'tool-call', toolCallId: 'call-order', toolName: 'lookup_order', input: '{"id":"A7"}' },
        ],
        'tool-calls',
      ),
      step(textParts('t2', 'The sum is 5; the order service is down.'), 'stop'),
    ],
  })
}

/** The assistant message as JSON: absent and undefined fields are the same on the wire. */
function asJson(message: UIMessage | undefined): UIMessage {
  return JSON.parse(JSON.stringify(message))
}

const expectedParts = [
  { type: 'step-start' },
  { type: 'text', text: 'Let me check.', state: 'done' },
  {
    type: 'dynamic-tool',
    toolName: 'add',
    toolCallId: 'call-add',
    state: 'output-available',
    input: { a: 2, b: 3 },
    output: '5',
  },
  {
    type: 'dynamic-tool',
    toolName: 'lookup_order',
    toolCallId: 'call-order',
    state: 'output-error',
    input: { id: 'A7' },
    errorText: ORDER_ERROR,
  },
  { type: 'step-start' },
  { type: 'text', text: 'The sum is 5; the order service is down.', state: 'done' },
]

function post(body: unknown, init: RequestInit = {}): Request {
  return new Request('http://localhost/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  })
}

describe(`createChatHandler (ai ${aiMajor})`, () => {
  it('answers useChat with the assistant message: text, tool parts in output-available and output-error', async () => {
    const model = toolUsingModel()
    const handler = createChatHandler({ client: createClient({ model }), toolkit, system: 'Be brief.' })
    const exchange = await chatThrough(handler, [userMessage('u1', 'Add 2 and 3, and look up order A7.')])

    expect(exchange.requestBody).toMatchObject({ id: 'chat-1', trigger: 'submit-message' })
    expect(exchange.errors).toStrictEqual([])
    expect(asJson(exchange.message).role).toBe('assistant')
    expect(asJson(exchange.message).parts).toStrictEqual(expectedParts)

    const [firstCall] = model.doStreamCalls
    expect(firstCall?.prompt).toStrictEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Add 2 and 3, and look up order A7.' }] },
    ])
    expect(firstCall?.tools?.map((tool) => tool.name)).toStrictEqual(['add', 'lookup_order'])
  })

  it('sends the earlier tool calls and results back to the model on the next turn', async () => {
    const first = await chatThrough(
      createChatHandler({ client: createClient({ model: toolUsingModel() }), toolkit }),
      [userMessage('u1', 'Add 2 and 3, and look up order A7.')],
    )
    const model = new MockLanguageModelV3({ doStream: [step(textParts('t3', 'It was 5.'), 'stop')] })
    const history: UIMessage[] = [
      userMessage('u1', 'Add 2 and 3, and look up order A7.'),
      asJson(first.message),
      userMessage('u2', 'What was the sum?'),
    ]
    const second = await chatThrough(createChatHandler({ client: createClient({ model }), toolkit }), history)
    expect(asJson(second.message).parts).toStrictEqual([
      { type: 'step-start' },
      { type: 'text', text: 'It was 5.', state: 'done' },
    ])

    const prompt = model.doStreamCalls[0]?.prompt ?? []
    const withoutOptions = prompt.map(({ role, content }) => ({ role, content }))
    expect(withoutOptions).toStrictEqual([
      { role: 'user', content: [{ type: 'text', text: 'Add 2 and 3, and look up order A7.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool-call', toolCallId: 'call-add', toolName: 'add', input: { a: 2, b: 3 } },
          { type: 'tool-call', toolCallId: 'call-order', toolName: 'lookup_order', input: { id: 'A7' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call-add',
            toolName: 'add',
            output: { type: 'text', value: '5' },
          },
          {
            type: 'tool-result',
            toolCallId: 'call-order',
            toolName: 'lookup_order',
            output: { type: 'error-text', value: ORDER_ERROR },
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'The sum is 5; the order service is down.' }] },
      { role: 'user', content: [{ type: 'text', text: 'What was the sum?' }] },
    ])
  })

  it('serves the same stream from a hand-written route through client.stream(...).toUIMessageStreamResponse()', async () => {
    const model = toolUsingModel()
    const client = createClient({ model })
    const handwritten = async (request: Request): Promise<Response> => {
      const { messages } = (await request.json()) as { messages: UIMessage[] }
      const stream = client.stream(await convertToModelMessages(messages), {
        toolkit,
        signal: request.signal,
      })
      return stream.toUIMessageStreamResponse()
    }
    const exchange = await chatThrough(handwritten, [userMessage('u1', 'Add 2 and 3, and look up order A7.')])
    expect(exchange.errors).toStrictEqual([])
    expect(asJson(exchange.message).parts).toStrictEqual(expectedParts)
  })

  it('turns a model that fails mid-run into an error chunk, after what had already streamed', async () => {
    let calls = 0
    const model = new MockLanguageModelV3({
      doStream: async () => {
        calls += 1
        if (calls === 1) {
          return addingStep('{"a":1,"b":1}')
        }
        throw new Error('The model provider rejected the request (invalid model id).')
      },
    })
    const handler = createChatHandler({ client: createClient({ model, retries: 0 }), toolkit })
    const response = await handler(
      post({ id: 'c', messages: [userMessage('u1', 'add 1 and 1')], trigger: 'submit-message' }),
    )
    expect(response.status).toBe(200)
    const chunks = await sseChunks(response)
    expect(chunks.slice(-3)).toMatchObject([
      { type: 'tool-output-available', toolCallId: 'call-add', output: '2' },
      { type: 'finish-step' },
      { type: 'error', errorText: expect.stringContaining('invalid model id') },
    ])

    const exchange = await chatThrough(
      createChatHandler({ client: createClient({ model: failingModel(), retries: 0 }), toolkit }),
      [userMessage('u1', 'hi')],
    )
    expect(exchange.errors).toHaveLength(1)
    expect(exchange.errors[0]).toContain('boom')
  })

  it('lets onError decide what the browser sees', async () => {
    const handler = createChatHandler({
      client: createClient({ model: failingModel(), retries: 0 }),
      toolkit,
      onError: () => 'Something went wrong. Try again.',
    })
    const response = await handler(post({ messages: [userMessage('u1', 'hi')] }))
    expect((await sseChunks(response)).at(-1)).toStrictEqual({
      type: 'error',
      errorText: 'Something went wrong. Try again.',
    })
  })

  it('aborts the run when the client disconnects', async () => {
    let modelSignal: AbortSignal | undefined
    const model = new MockLanguageModelV3({
      doStream: async (options: LanguageModelV3CallOptions) => {
        modelSignal = options.abortSignal
        return {
          stream: new ReadableStream<LanguageModelV3StreamPart>({
            start(controller) {
              controller.enqueue({ type: 'stream-start', warnings: [] })
              controller.enqueue({ type: 'text-start', id: 't1' })
              controller.enqueue({ type: 'text-delta', id: 't1', delta: 'Thinking very slowly' })
              // Never finishes: only the abort ends this call.
              options.abortSignal?.addEventListener('abort', () =>
                controller.error(options.abortSignal?.reason),
              )
            },
          }),
        }
      },
    })
    const handler = createChatHandler({ client: createClient({ model }), toolkit })
    const browser = new AbortController()
    const response = await handler(post({ messages: [userMessage('u1', 'hi')] }, { signal: browser.signal }))
    const reader = response.body!.getReader()
    const decoder = new TextDecoder()
    let seen = ''
    while (!seen.includes('Thinking very slowly')) {
      const { value, done } = await reader.read()
      if (done) break
      seen += decoder.decode(value)
    }
    const started = Date.now()
    browser.abort()
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      seen += decoder.decode(value)
    }
    expect(Date.now() - started).toBeLessThan(2000)
    expect(modelSignal?.aborted).toBe(true)
    expect(seen).not.toContain('"type":"error"')
  })

  it('runs and aborts with a request signal from another realm, as on the Next.js edge runtime', async () => {
    // Next's edge sandbox hands the route a request whose signal is not an instance of the sandbox's own
    // AbortSignal; an edge-runtime VM's AbortController makes such a signal here.
    const foreign: AbortController = new EdgeVM().evaluate('new AbortController()')
    expect(foreign.signal instanceof AbortSignal).toBe(false)
    const withForeignSignal = (body: unknown): Request =>
      Object.defineProperty(post(body), 'signal', { value: foreign.signal })

    const handler = createChatHandler({ client: createClient({ model: toolUsingModel() }), toolkit })
    const chunks = await sseChunks(await handler(withForeignSignal({ messages: [userMessage('u1', 'add')] })))
    expect(chunks.filter((chunk) => (chunk as { type: string }).type === 'error')).toStrictEqual([])
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' })

    let modelSignal: AbortSignal | undefined
    const slow = new MockLanguageModelV3({
      doStream: async (options: LanguageModelV3CallOptions) => {
        modelSignal = options.abortSignal
        return { stream: new ReadableStream<LanguageModelV3StreamPart>({ start() {} }) }
      },
    })
    const aborting = createChatHandler({ client: createClient({ model: slow }), toolkit })
    const response = await aborting(withForeignSignal({ messages: [userMessage('u1', 'hi')] }))
    await expect.poll(() => modelSignal).toBeDefined()
    foreign.abort()
    expect(await response.text()).not.toContain('"type":"error"')
    expect(modelSignal?.aborted).toBe(true)
  })

  it.each([
    ['a body that is not JSON', '{"messages": [', 'not JSON'],
    ['a JSON array', [], 'not an object'],
    ['no messages', { id: 'c' }, '"messages" must be an array'],
    ['no messages at all in the array', { messages: [] }, '"messages" is empty'],
    [
      'an old-style message with content',
      { messages: [{ id: 'm', role: 'user', content: 'hi' }] },
      'parts must be an array',
    ],
    ['a role useChat never sends', { messages: [{ id: 'm', role: 'tool', parts: [] }] }, 'role must be'],
    ['an unknown trigger', { messages: [userMessage('u1', 'hi')], trigger: 'resume' }, '"trigger" must be'],
    ['an id that is not a string', { id: 7, messages: [userMessage('u1', 'hi')] }, '"id" must be a string'],
    [
      'a text part without text',
      { messages: [{ id: 'm', role: 'user', parts: [{ type: 'text' }] }] },
      'not valid UI messages',
    ],
  ])(
    'answers %s with a 400 and a clear message, without calling the model',
    async (_case, body, expected) => {
      const model = toolUsingModel()
      const handler = createChatHandler({ client: createClient({ model }), toolkit })
      const response = await handler(post(body))
      expect(response.status).toBe(400)
      expect(response.headers.get('content-type')).toContain('application/json')
      const { error } = (await response.json()) as { error: string }
      expect(error).toContain(expected)
      expect(model.doStreamCalls).toHaveLength(0)
    },
  )

  it('takes the toolkit from a function on each request, and answers 500 when it cannot be created', async () => {
    const requests: Request[] = []
    const handler = createChatHandler({
      client: createClient({ model: toolUsingModel() }),
      toolkit: async (request) => {
        requests.push(request)
        return toolkit
      },
    })
    const exchange = await chatThrough(handler, [userMessage('u1', 'Add 2 and 3, and look up order A7.')])
    expect(asJson(exchange.message).parts).toStrictEqual(expectedParts)
    expect(requests).toHaveLength(1)

    const broken = createChatHandler({
      client: createClient({ model: toolUsingModel() }),
      toolkit: Promise.reject(new Error('mcp.json not found')),
    })
    const response = await broken(post({ messages: [userMessage('u1', 'hi')] }))
    expect(response.status).toBe(500)
    expect(await response.json()).toStrictEqual({
      error: 'The toolkit could not be created: mcp.json not found',
    })
  })
})

function failingModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doStream: async () => {
      throw new Error('boom')
    },
  })
}
