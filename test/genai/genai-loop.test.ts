import { fileURLToPath } from 'node:url'
import type { Content } from '@google/genai'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import type { RunEvent } from '../../src/contracts/run-types.js'
import { AbortError, ModelCallError } from '../../src/errors.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { explode } from '../support/explode-tool.js'
import {
  type GeminiPartJson,
  genaiFor,
  modelReply,
  responseBody,
  type ScriptedGemini,
  startScriptedGemini,
  streamReply,
} from '../support/scripted-gemini.js'

const MODEL = 'gemini-2.5-flash'
const SKILLS_DIR = fileURLToPath(new URL('../fixtures/skills', import.meta.url))

let server: ScriptedGemini | undefined
const toolkits: Toolkit[] = []

afterEach(async () => {
  await server?.close()
  server = undefined
  for (const toolkit of toolkits.splice(0)) await toolkit.close()
})

async function start(script: Parameters<typeof startScriptedGemini>[0]['script']): Promise<ScriptedGemini> {
  server = await startScriptedGemini({ script })
  return server
}

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  execute: ({ a, b }) => String(Number(a) + Number(b)),
})

async function toolkitOf(options: Parameters<typeof createToolkit>[0]): Promise<Toolkit> {
  const toolkit = await createToolkit({ logger: { warn: () => {} }, ...options })
  toolkits.push(toolkit)
  return toolkit
}

/** Key-sorted JSON: the SDK writes its own key order, so "byte for byte" compares canonical text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'object' && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  )
}

describe('createClient({ genai, model }).run', () => {
  it('declares the tools in one wrapper, keeps the model turn verbatim and answers every call in order', async () => {
    // Gemini's own key order; thought text and a signature on a thought part and on the first call.
    const firstTurn: GeminiPartJson[] = [
      { text: 'I should add both pairs.', thought: true, thoughtSignature: 'dGhvdWdodC1zaWc=' },
      { functionCall: { args: { a: 1, b: 2 }, id: 'call-a', name: 'add' }, thoughtSignature: 'Y2FsbC1zaWc=' },
      { functionCall: { args: { a: 3, b: 4 }, name: 'add' } },
      { functionCall: { args: {}, name: 'no_such_tool' } },
      { functionCall: { args: {}, name: 'explode' } },
      { functionCall: { args: { a: 'x' }, name: 'add' } },
    ]
    const gemini = await start([modelReply(firstTurn), modelReply([{ text: 'Sums: 3 and 7.' }])])
    const toolkit = await toolkitOf({ tools: [add, explode] })
    const client = createClient({ genai: genaiFor(gemini.baseUrl), model: MODEL })

    const result = await client.run('Add 1+2 and 3+4.', { toolkit })

    expect(gemini.requests.map((request) => request.url)).toStrictEqual([
      `/v1beta/models/${MODEL}:generateContent`,
      `/v1beta/models/${MODEL}:generateContent`,
    ])
    const [first, second] = gemini.requests
    expect(first?.headers['x-goog-api-key']).toBe('test-key')
    expect(first?.body.tools).toHaveLength(1)
    expect(first?.body.tools).toMatchInlineSnapshot(`
      [
        {
          "functionDeclarations": [
            {
              "description": "Adds two numbers.",
              "name": "add",
              "parameters": {
                "properties": {
                  "a": {
                    "type": "NUMBER",
                  },
                  "b": {
                    "type": "NUMBER",
                  },
                },
                "required": [
                  "a",
                  "b",
                ],
                "type": "OBJECT",
              },
            },
            {
              "description": "Always throws.",
              "name": "explode",
            },
          ],
        },
      ]
    `)
    expect(second?.body.tools).toStrictEqual(first?.body.tools)

    // The second request's model turn is the first response's candidate content, signatures included.
    const sentModelTurn = second?.body.contents[1]
    expect(sentModelTurn).toStrictEqual({ role: 'model', parts: firstTurn })
    expect(canonical(sentModelTurn)).toBe(canonical(responseBody(firstTurn).candidates?.[0]?.content))
    expect(second?.rawBody).toContain('"thoughtSignature":"Y2FsbC1zaWc="')
    expect(second?.rawBody).toContain('"thoughtSignature":"dGhvdWdodC1zaWc="')

    // One user turn, one functionResponse per call, in call order; an id only where Gemini sent one.
    expect(second?.body.contents).toHaveLength(3)
    expect(second?.body.contents[2]).toStrictEqual({
      parts: [
        { functionResponse: { id: 'call-a', name: 'add', response: { output: '3' } } },
        { functionResponse: { name: 'add', response: { output: '7' } } },
        {
          functionResponse: {
            name: 'no_such_tool',
            response: { error: expect.stringContaining('no_such_tool') },
          },
        },
        { functionResponse: { name: 'explode', response: { error: expect.stringContaining('kaboom') } } },
        {
          functionResponse: {
            name: 'add',
            response: { error: expect.stringContaining('Invalid arguments') },
          },
        },
      ],
      role: 'user',
    })

    expect(result.text).toBe('Sums: 3 and 7.')
    expect(result.status).toBe('done')
    expect(result.turns).toBe(2)
    expect(result.finishReason).toBe('stop')
    expect(result.usage).toStrictEqual({ inputTokens: 20, outputTokens: 10, totalTokens: 30 })
    expect(result.messages).toHaveLength(4)
    expect(result.messages[1]).toStrictEqual({ role: 'model', parts: firstTurn })
    expect(result.messages[3]).toStrictEqual({ role: 'model', parts: [{ text: 'Sums: 3 and 7.' }] })
    expect(
      result.toolCalls.map(({ id, name, isError, output }) => ({ id, name, isError, output })),
    ).toStrictEqual([
      { id: 'call-a', name: 'add', isError: false, output: '3' },
      { id: expect.stringMatching(/^gemini-call-\d+$/), name: 'add', isError: false, output: '7' },
      {
        id: expect.stringMatching(/^gemini-call-\d+$/),
        name: 'no_such_tool',
        isError: true,
        output: expect.stringContaining('Unknown tool'),
      },
      {
        id: expect.stringMatching(/^gemini-call-\d+$/),
        name: 'explode',
        isError: true,
        output: expect.stringContaining('kaboom'),
      },
      {
        id: expect.stringMatching(/^gemini-call-\d+$/),
        name: 'add',
        isError: true,
        output: expect.stringContaining('Invalid arguments'),
      },
    ])
    expect(new Set(result.toolCalls.map((call) => call.id)).size).toBe(5)
  })

  it('answers parallel calls to the same function in call order, with and without ids', async () => {
    const slowAdd = defineTool({
      name: 'add',
      description: 'Adds two numbers, slower for small ones.',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
      // The first call finishes last: the answers must still come back in call order.
      execute: async ({ a, b }) => {
        await new Promise((resolve) => setTimeout(resolve, 60 - 10 * Number(a)))
        return String(Number(a) + Number(b))
      },
    })
    const gemini = await start([
      modelReply([
        { functionCall: { args: { a: 1, b: 1 }, name: 'add' }, thoughtSignature: 'cDE=' },
        { functionCall: { args: { a: 2, b: 2 }, name: 'add' } },
        { functionCall: { args: { a: 3, b: 3 }, name: 'add' } },
      ]),
      modelReply([
        { functionCall: { args: { a: 1, b: 10 }, id: 'x1', name: 'add' }, thoughtSignature: 'cDI=' },
        { functionCall: { args: { a: 2, b: 10 }, id: 'x2', name: 'add' } },
      ]),
      modelReply([{ text: 'ok' }]),
    ])
    const toolkit = await toolkitOf({ tools: [slowAdd] })
    const result = await createClient({ genai: genaiFor(gemini.baseUrl), model: MODEL }).run('sums', {
      toolkit,
    })

    const answers = (index: number, content: number) =>
      gemini.requests[index]?.body.contents[content]?.parts?.map((part) => part.functionResponse)
    expect(answers(1, 2)).toStrictEqual([
      { name: 'add', response: { output: '2' } },
      { name: 'add', response: { output: '4' } },
      { name: 'add', response: { output: '6' } },
    ])
    expect(answers(2, 4)).toStrictEqual([
      { id: 'x1', name: 'add', response: { output: '11' } },
      { id: 'x2', name: 'add', response: { output: '12' } },
    ])
    expect(result.toolCalls.map((call) => call.output)).toStrictEqual(['2', '4', '6', '11', '12'])
    expect(result.turns).toBe(3)
  })

  it('leaves out `tools` entirely without a toolkit or with an empty one, and sends system + skills prompt', async () => {
    const gemini = await start([
      modelReply([{ text: 'a' }]),
      modelReply([{ text: 'b' }]),
      modelReply([{ text: 'c' }]),
    ])
    const genai = genaiFor(gemini.baseUrl)
    await createClient({ genai, model: MODEL }).run('no toolkit')
    await createClient({ genai, model: MODEL, system: 'Be brief.' }).run('empty toolkit', {
      toolkit: await toolkitOf({}),
    })
    const withSkills = await toolkitOf({ skillsDir: SKILLS_DIR })
    await createClient({ genai, model: MODEL, system: 'Be brief.' }).run('skills', { toolkit: withSkills })

    const [none, empty, skills] = gemini.requests
    expect(none?.body).toStrictEqual({
      contents: [{ parts: [{ text: 'no toolkit' }], role: 'user' }],
      generationConfig: {},
    })
    expect('tools' in (empty?.body ?? {})).toBe(false)
    expect(empty?.body.systemInstruction).toStrictEqual({ parts: [{ text: 'Be brief.' }] })
    expect(
      skills?.body.tools?.[0]?.functionDeclarations?.map((declaration) => declaration.name),
    ).toStrictEqual(['skill'])
    expect(skills?.body.systemInstruction).toStrictEqual({
      parts: [{ text: `Be brief.\n\n${withSkills.skillsPrompt()}` }],
    })
    expect(withSkills.skillsPrompt()).toContain('hello-world')
  })

  it('continues from history and through ask, sending the earlier turns back unchanged', async () => {
    const gemini = await start([
      modelReply([{ functionCall: { args: { a: 2, b: 2 }, name: 'add' }, thoughtSignature: 'aDE=' }]),
      modelReply([{ text: 'four' }]),
      modelReply([{ text: 'still four' }]),
    ])
    const toolkit = await toolkitOf({ tools: [add] })
    const client = createClient({ genai: genaiFor(gemini.baseUrl), model: MODEL })
    const first = await client.ask('2+2?', { id: 'c1', toolkit })
    const second = await client.ask('sure?', { id: 'c1', toolkit })
    expect(first.messages).toHaveLength(4)
    expect(second.messages).toHaveLength(6)
    expect(gemini.requests[2]?.body.contents).toStrictEqual([
      ...(gemini.requests[1]?.body.contents ?? []),
      { role: 'model', parts: [{ text: 'four' }] },
      { role: 'user', parts: [{ text: 'sure?' }] },
    ])
    expect((await client.store.load('c1'))?.messages).toStrictEqual(second.messages)
  })

  it('stops after maxTurns model calls with status max-turns, every call still answered', async () => {
    const call = (n: number) =>
      modelReply([{ functionCall: { args: { a: n, b: n }, name: 'add' }, thoughtSignature: `bSR7${n}` }])
    const gemini = await start([call(1), call(2), call(3), call(4)])
    const toolkit = await toolkitOf({ tools: [add] })
    const result = await createClient({ genai: genaiFor(gemini.baseUrl), model: MODEL, maxTurns: 2 }).run(
      'loop',
      {
        toolkit,
      },
    )
    expect(result.status).toBe('max-turns')
    expect(result.turns).toBe(2)
    expect(gemini.requests).toHaveLength(2)
    expect(result.toolCalls.map((record) => record.output)).toStrictEqual(['2', '4'])
    expect(result.messages.at(-1)).toStrictEqual({
      role: 'user',
      parts: [{ functionResponse: { name: 'add', response: { output: '4' } } }],
    })
  })

  it('keeps an empty answer in the transcript without sending a content that has no parts', async () => {
    const gemini = await start([
      {
        kind: 'response',
        body: {
          candidates: [{ finishReason: 'MAX_TOKENS', index: 0 }],
          usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 },
        },
      },
      modelReply([{ text: 'second try' }]),
    ])
    const client = createClient({ genai: genaiFor(gemini.baseUrl), model: MODEL })
    const first = await client.run('hi')
    expect(first.finishReason).toBe('length')
    expect(first.text).toBe('')
    expect(first.messages[1]).toStrictEqual({ role: 'model', parts: [] })
    const second = await client.run('again', { history: first.messages })
    expect(second.text).toBe('second try')
    expect(gemini.requests[1]?.body.contents).toStrictEqual([
      { parts: [{ text: 'hi' }], role: 'user' },
      { parts: [{ text: 'again' }], role: 'user' },
    ])
  })
})

describe('whatever the model sends, the run goes on', () => {
  it('answers a call without a name or arguments with an error, and reports blocked answers as content-filter', async () => {
    const gemini = await start([
      modelReply([{ functionCall: { name: '' } }, { functionCall: { name: 'add', args: { a: 1, b: 1 } } }]),
      modelReply([{ text: 'I cannot say that.' }], { finishReason: 'SAFETY' }),
      {
        kind: 'response',
        body: {
          promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
          usageMetadata: { promptTokenCount: 3, totalTokenCount: 3 },
        },
      },
    ])
    const toolkit = await toolkitOf({ tools: [add] })
    const client = createClient({ genai: genaiFor(gemini.baseUrl), model: MODEL })
    const result = await client.run('?', { toolkit })
    expect(gemini.requests[1]?.body.contents[2]?.parts).toStrictEqual([
      { functionResponse: { name: '', response: { error: expect.any(String) } } },
      { functionResponse: { name: 'add', response: { output: '2' } } },
    ])
    expect(result.finishReason).toBe('content-filter')
    expect(result.text).toBe('I cannot say that.')

    const blocked = await client.run('!!')
    expect(blocked).toMatchObject({ finishReason: 'content-filter', text: '', status: 'done', turns: 1 })
    expect(blocked.messages).toStrictEqual([
      { role: 'user', parts: [{ text: '!!' }] },
      { role: 'model', parts: [] },
    ])
  })

  it('leaves out a part that carries nothing, which Gemini would refuse to be sent back', async () => {
    const gemini = await start([
      modelReply([{ text: 'Hi' }, { text: '' }, { text: '', thoughtSignature: 'ZW1wdHk=' }]),
      modelReply([{ text: 'again' }]),
    ])
    const client = createClient({ genai: genaiFor(gemini.baseUrl), model: MODEL })
    const first = await client.run('hello')
    expect(first.messages[1]).toStrictEqual({
      role: 'model',
      parts: [{ text: 'Hi' }, { text: '', thoughtSignature: 'ZW1wdHk=' }],
    })
    await client.run('and?', { history: first.messages })
    expect(gemini.requests[1]?.body.contents[1]).toStrictEqual(first.messages[1])
  })

  it('hands afterModel the SDK response, and a beforeModel tool change reaches the request', async () => {
    const gemini = await start([
      modelReply([{ functionCall: { name: 'add', args: { a: 1, b: 2 } }, thoughtSignature: 'aG9vaw==' }]),
      modelReply([{ text: 'three' }]),
      streamReply([[{ text: 'thr' }], [{ text: 'ee' }]], {
        usage: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
      }),
    ])
    const toolkit = await toolkitOf({ tools: [add, explode] })
    const responses: unknown[] = []
    const client = createClient({
      genai: genaiFor(gemini.baseUrl),
      model: MODEL,
      hooks: {
        beforeModel: ({ tools, turn }) =>
          turn === 2 ? { tools: tools.filter((tool) => tool.name === 'add') } : undefined,
        afterModel: ({ response }) => {
          responses.push(response)
        },
      },
    })
    await client.run('1+2', { toolkit })
    const stream = client.stream('again', { toolkit })
    await stream.result
    expect(
      gemini.requests[0]?.body.tools?.[0]?.functionDeclarations?.map((declaration) => declaration.name),
    ).toStrictEqual(['add', 'explode'])
    expect(
      gemini.requests[1]?.body.tools?.[0]?.functionDeclarations?.map((declaration) => declaration.name),
    ).toStrictEqual(['add'])
    expect(responses[0]).toMatchObject({
      candidates: [{ content: { parts: [{ thoughtSignature: 'aG9vaw==' }] } }],
      modelVersion: 'scripted-gemini',
    })
    expect(responses[2]).toMatchObject({
      candidates: [
        { content: { role: 'model', parts: [{ text: 'thr' }, { text: 'ee' }] }, finishReason: 'STOP' },
      ],
      usageMetadata: { totalTokenCount: 2 },
    })
  })
})

describe('createClient({ genai, model }).stream', () => {
  it('streams text, keeps every chunk part in order and sends back the signature from a trailing empty part', async () => {
    const streamedTurn: GeminiPartJson[][] = [
      [{ text: 'Thinking about sums', thought: true }],
      [{ text: 'Let me ' }],
      [
        { text: 'add.' },
        { functionCall: { args: { a: 5, b: 6 }, name: 'add' }, thoughtSignature: 'c3RyZWFtLWNhbGw=' },
      ],
    ]
    const gemini = await start([
      streamReply(streamedTurn, {
        usage: { promptTokenCount: 7, candidatesTokenCount: 3, thoughtsTokenCount: 2, totalTokenCount: 12 },
      }),
      streamReply(
        [
          [{ text: 'It is ' }],
          [{ text: '11.' }],
          [{ text: '', thoughtSignature: 'dHJhaWxpbmc=' }],
          [{ text: '' }],
        ],
        {
          usage: { promptTokenCount: 20, candidatesTokenCount: 4, totalTokenCount: 24 },
        },
      ),
      modelReply([{ text: 'yes' }]),
    ])
    const toolkit = await toolkitOf({ tools: [add] })
    const client = createClient({ genai: genaiFor(gemini.baseUrl), model: MODEL })

    const events: Array<RunEvent<Content>> = []
    for await (const event of client.stream('5+6?', { toolkit })) events.push(event)

    expect(gemini.requests.map((request) => request.url)).toStrictEqual([
      `/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`,
      `/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`,
    ])
    expect(gemini.requests[1]?.body.contents[1]).toStrictEqual({ role: 'model', parts: streamedTurn.flat() })
    expect(
      events.map((event) => (event.type === 'text-delta' ? `text:${event.text}` : event.type)),
    ).toStrictEqual([
      'text:Let me ',
      'text:add.',
      'tool-call',
      'tool-result',
      'step-end',
      'text:It is ',
      'text:11.',
      'step-end',
      'finish',
    ])
    const finish = events.at(-1)
    if (finish?.type !== 'finish') throw new Error('finish must come last')
    const { result } = finish
    expect(result.text).toBe('It is 11.')
    // Thinking counts as output; the usage of each stream is its last chunk's.
    expect(result.usage).toStrictEqual({ inputTokens: 27, outputTokens: 9, totalTokens: 36 })
    // The trailing empty part with the signature is kept; the bare `{ text: '' }` after it carries nothing.
    const lastTurn = result.messages.at(-1)
    expect(lastTurn).toStrictEqual({
      role: 'model',
      parts: [{ text: 'It is ' }, { text: '11.' }, { text: '', thoughtSignature: 'dHJhaWxpbmc=' }],
    })

    // Sent back on the next run, the signature travels on its empty part.
    await client.run('sure?', { history: result.messages })
    expect(gemini.requests[2]?.body.contents[3]).toStrictEqual(lastTurn)
    expect(gemini.requests[2]?.rawBody).toContain('{"text":"","thoughtSignature":"dHJhaWxpbmc="}')
  })
})

describe('retries and aborts over @google/genai', () => {
  it("retries 429 (honouring Gemini's RetryInfo delay) and 503, then succeeds", async () => {
    const gemini = await start([
      {
        kind: 'error',
        status: 429,
        message: 'Resource has been exhausted (e.g. check quota).',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.3s' }],
      },
      { kind: 'error', status: 503, message: 'The model is overloaded.' },
      modelReply([{ text: 'finally' }]),
    ])
    const client = createClient({
      genai: genaiFor(gemini.baseUrl),
      model: MODEL,
      retries: { maxRetries: 2, initialDelayMs: 1 },
    })
    const started = performance.now()
    const result = await client.run('hi')
    expect(result.text).toBe('finally')
    expect(gemini.requests).toHaveLength(3)
    expect(performance.now() - started).toBeGreaterThanOrEqual(290)
  })

  it('gives up after the retries with a ModelCallError carrying the ApiError, and never retries a 400', async () => {
    const gemini = await start([
      { kind: 'error', status: 500, message: 'internal' },
      { kind: 'error', status: 500, message: 'internal' },
      { kind: 'error', status: 400, message: 'bad request' },
    ])
    const client = createClient({
      genai: genaiFor(gemini.baseUrl),
      model: MODEL,
      retries: { maxRetries: 1, initialDelayMs: 1 },
    })
    const failure = await client.run('hi').catch((error: unknown) => error)
    expect(ModelCallError.isInstance(failure)).toBe(true)
    expect((failure as ModelCallError).cause).toMatchObject({ name: 'ApiError', status: 500 })
    expect(gemini.requests).toHaveLength(2)

    const bad = await client.run('hi').catch((error: unknown) => error)
    expect((bad as ModelCallError).cause).toMatchObject({ status: 400 })
    expect(gemini.requests).toHaveLength(3)
  })

  it('aborts a hanging generateContent promptly with an AbortError and does not retry it', async () => {
    const gemini = await start([{ kind: 'hang' }, modelReply([{ text: 'never asked' }])])
    const client = createClient({ genai: genaiFor(gemini.baseUrl), model: MODEL })
    const controller = new AbortController()
    const running = client.run('hi', { signal: controller.signal })
    await waitFor(() => gemini.requests.length === 1)
    const started = performance.now()
    controller.abort()
    await expect(running).rejects.toSatisfy((error) => AbortError.isInstance(error))
    // The script never answers: only the abort can end this call, and it must do so at once (loose bound for loaded CI).
    expect(performance.now() - started).toBeLessThan(2_000)
    await waitFor(() => gemini.disconnects() === 1)
    expect(gemini.requests).toHaveLength(1)
  })

  it('aborts a stream mid-way and a running tool, and the run rejects with an AbortError', async () => {
    const gemini = await start([
      modelReply([{ functionCall: { args: {}, name: 'wait' }, thoughtSignature: 'dzE=' }]),
      streamReply([[{ text: 'a' }], [{ text: 'b' }], [{ text: 'c' }]], { delayMs: 5_000 }),
    ])
    let toolSawAbort = false
    const wait = defineTool({
      name: 'wait',
      description: 'Waits until aborted.',
      inputSchema: { type: 'object', properties: {} },
      execute: (_args, context) =>
        new Promise<string>((resolve) => {
          context?.signal?.addEventListener('abort', () => {
            toolSawAbort = true
            resolve('aborted')
          })
        }),
    })
    const toolkit = await toolkitOf({ tools: [wait] })
    const client = createClient({ genai: genaiFor(gemini.baseUrl), model: MODEL })

    const controller = new AbortController()
    const running = client.run('wait', { toolkit, signal: controller.signal })
    await waitFor(() => gemini.requests.length === 1)
    await new Promise((resolve) => setTimeout(resolve, 50))
    controller.abort()
    await expect(running).rejects.toSatisfy((error) => AbortError.isInstance(error))
    expect(toolSawAbort).toBe(true)

    const streaming = new AbortController()
    const stream = client.stream('stream', { signal: streaming.signal })
    await waitFor(() => gemini.requests.length === 2)
    streaming.abort()
    await expect(stream.result).rejects.toSatisfy((error) => AbortError.isInstance(error))
    await waitFor(() => gemini.disconnects() >= 1)
  })
})

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
