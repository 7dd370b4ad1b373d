import {
  generateText,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  readUIMessageStream,
  stepCountIs,
  streamText,
  ToolLoopAgent,
  tool,
  type UIMessage,
  wrapLanguageModel,
} from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/errors.js'
import { createToolnexus } from '../../src/provider-form/create-toolnexus.js'
import { withToolkit } from '../../src/provider-form/with-toolkit.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { addTool, PROVIDERS, provider, weatherTool } from '../loop/support.js'
import { googleProtocol } from '../support/scripted-google.js'
import {
  type ScriptedServer,
  type ScriptStep,
  startScriptedServer,
  type WireProtocol,
} from '../support/scripted-server.js'
import { bodyOf } from './support.js'

const servers: ScriptedServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function scripted(name: (typeof PROVIDERS)[number]['name'], script: ScriptStep[]) {
  const chosen = provider(name)
  const server = await startScriptedServer({ protocol: chosen.protocol, script })
  servers.push(server)
  return { server, model: chosen.model(server.url) as Exclude<LanguageModel, string>, chosen }
}

const TWO_TOOLS: ScriptStep[] = [
  {
    type: 'reply',
    text: 'Checking.',
    toolCalls: [
      { id: 'call_weather', name: 'get_weather', arguments: '{"city":"Chennai"}' },
      { id: 'call_add', name: 'add', arguments: '{"a":2,"b":3}' },
    ],
    usage: { input: 20, output: 7 },
  },
  { type: 'reply', text: 'Chennai is sunny; 2 + 3 = 5.', usage: { input: 50, output: 11 } },
]

describe.each(PROVIDERS)('withToolkit over $name', ({ name, sendsCallIds }) => {
  const ids = sendsCallIds ? ['call_weather', 'call_add'] : ['generated-0', 'generated-1']

  it('generateText: the toolkit runs inside one step, reported as provider-executed calls and results', async () => {
    const { server, model } = await scripted(name, TWO_TOOLS)
    const toolkit = await createToolkit({ tools: [weatherTool, addTool] })
    const wrapped = withToolkit(model, { toolkit })
    expect(wrapped.specificationVersion).toBe(model.specificationVersion)

    const result = await generateText({ model: wrapped, prompt: 'Weather in Chennai, and 2 + 3?' })

    expect(result.text).toContain('Chennai is sunny; 2 + 3 = 5.')
    expect(result.steps).toHaveLength(1)
    expect(result.finishReason).toBe('stop')
    expect(result.usage.inputTokens).toBe(70)
    expect(result.usage.outputTokens).toBe(18)
    expect(
      result.toolCalls.map((call) => [call.toolCallId, call.toolName, call.input, call.providerExecuted]),
    ).toStrictEqual([
      [ids[0], 'get_weather', { city: 'Chennai' }, true],
      [ids[1], 'add', { a: 2, b: 3 }, true],
    ])
    expect(result.toolResults.map((each) => [each.toolCallId, each.output])).toStrictEqual([
      [ids[0], 'Sunny and 31°C in Chennai.'],
      [ids[1], '{"sum":5}'],
    ])
    // The inner model got both calls' results in its own wire form, and only our two requests were made.
    expect(server.requests).toHaveLength(2)
    const second = JSON.stringify(server.requests[1]?.body)
    expect(second).toContain('Sunny and 31°C in Chennai.')
    expect(second).toContain('{\\"sum\\":5}')
  })

  it('streamText: the stream shows the calls, their results and the final text; useChat builds the message', async () => {
    const { model } = await scripted(name, TWO_TOOLS)
    const toolkit = await createToolkit({ tools: [weatherTool, addTool] })
    const result = streamText({
      model: withToolkit(model, { toolkit }),
      prompt: 'Weather in Chennai, and 2 + 3?',
    })

    const ui = result.toUIMessageStream()
    let message: UIMessage | undefined
    for await (const built of readUIMessageStream({ stream: ui })) message = built

    expect(await result.text).toContain('Chennai is sunny; 2 + 3 = 5.')
    const toolParts = (message?.parts ?? []).filter((part) => part.type === 'dynamic-tool')
    expect(
      toolParts.map((part) => [part.toolName, part.state, 'output' in part ? part.output : undefined]),
    ).toStrictEqual([
      ['get_weather', 'output-available', 'Sunny and 31°C in Chennai.'],
      ['add', 'output-available', '{"sum":5}'],
    ])
    const text = (message?.parts ?? [])
      .filter((part) => part.type === 'text')
      .map((part) => part.text)
      .join('')
    expect(text).toContain('Chennai is sunny; 2 + 3 = 5.')
    expect((await result.usage).inputTokens).toBe(70)
    expect((await result.steps).length).toBe(1)
  })
})

describe('withToolkit beside the caller’s own tools', () => {
  const lookup = tool({
    description: 'Looks up an order.',
    inputSchema: jsonSchema<{ order: string }>({
      type: 'object',
      properties: { order: { type: 'string' } },
      required: ['order'],
    }),
    execute: async ({ order }) => `order ${order}: shipped`,
  })
  const MIXED: ScriptStep[] = [
    {
      type: 'reply',
      toolCalls: [
        { id: 'call_add', name: 'add', arguments: '{"a":1,"b":2}' },
        { id: 'call_lookup', name: 'lookup', arguments: '{"order":"A7"}' },
      ],
      usage: { input: 10, output: 5 },
    },
    { type: 'reply', text: '1 + 2 = 3 and A7 has shipped.', usage: { input: 30, output: 9 } },
  ]

  it.each(['generate', 'stream'] as const)(
    '%s: one turn calls both; the wrapper runs its own, leaves the caller’s to the AI SDK, and the next call pairs every result',
    async (mode) => {
      const { server, model } = await scripted('openai-chat', MIXED)
      const toolkit = await createToolkit({ tools: [addTool] })
      const options = {
        model: withToolkit(model, { toolkit }),
        tools: { lookup },
        stopWhen: stepCountIs(3),
        prompt: 'What is 1 + 2, and where is order A7?',
      }
      const result = mode === 'generate' ? await generateText(options) : streamText(options)
      const steps = await result.steps
      expect(steps).toHaveLength(2)
      expect(
        steps[0]?.toolCalls.map((call) => [call.toolName, call.providerExecuted ?? false]),
      ).toStrictEqual([
        ['add', true],
        ['lookup', false],
      ])
      expect(steps[0]?.toolResults.map((each) => [each.toolName, each.output])).toStrictEqual([
        ['add', '{"sum":3}'],
        ['lookup', 'order A7: shipped'],
      ])
      expect(await result.text).toBe('1 + 2 = 3 and A7 has shipped.')
      // The inner model saw one assistant turn with both calls, then both results, as Chat Completions wants.
      const messages = bodyOf<{ messages: Array<Record<string, unknown>> }>(server, 1).messages
      expect(messages.map((message) => message.role)).toStrictEqual(['user', 'assistant', 'tool', 'tool'])
      expect(
        ((messages[1]?.tool_calls as Array<{ id: string }> | undefined) ?? []).map((call) => call.id),
      ).toStrictEqual(['call_add', 'call_lookup'])
      expect(messages.slice(2).map((message) => [message.tool_call_id, message.content])).toStrictEqual([
        ['call_add', '{"sum":3}'],
        ['call_lookup', 'order A7: shipped'],
      ])
      // Both tools were declared to the model.
      const declared = bodyOf<{ tools: Array<{ function: { name: string } }> }>(server, 0).tools
      expect(declared.map((each) => each.function.name).sort()).toStrictEqual(['add', 'lookup'])
    },
  )

  it('a conversation continued from the AI SDK’s response messages hands the inner model its calls and results in turn order', async () => {
    const script: ScriptStep[] = [
      {
        type: 'reply',
        text: 'Adding.',
        toolCalls: [{ id: 'call_1', name: 'add', arguments: '{"a":1,"b":1}' }],
      },
      {
        type: 'reply',
        text: 'Again.',
        toolCalls: [{ id: 'call_2', name: 'add', arguments: '{"a":2,"b":2}' }],
      },
      { type: 'reply', text: 'Both done.' },
      { type: 'reply', text: 'You asked twice.' },
    ]
    const { server, model } = await scripted('openai-chat', script)
    const toolkit = await createToolkit({ tools: [addTool] })
    const wrapped = withToolkit(model, { toolkit })
    const first = await generateText({ model: wrapped, prompt: 'Add twice.' })
    await generateText({
      model: wrapped,
      messages: [
        { role: 'user', content: 'Add twice.' },
        ...first.response.messages,
        { role: 'user', content: 'What did I ask?' },
      ],
    })
    const messages = bodyOf<{ messages: Array<Record<string, unknown>> }>(server, 3).messages
    expect(messages.map((message) => message.role)).toStrictEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'user',
    ])
    expect(
      messages.filter((message) => message.role === 'tool').map((message) => message.content),
    ).toStrictEqual(['{"sum":2}', '{"sum":4}'])
  })
})

describe('withToolkit: aborts, agents and middleware', () => {
  it('an abort mid-tool reaches the tool and ends the call', async () => {
    let seen: AbortSignal | undefined
    let release!: () => void
    const running = new Promise<void>((resolve) => {
      release = resolve
    })
    const slow = defineTool({
      name: 'slow',
      description: 'Waits until aborted.',
      inputSchema: { type: 'object', properties: {} },
      execute: (_args, context) =>
        new Promise<string>((resolve) => {
          seen = context?.signal
          release()
          context?.signal?.addEventListener('abort', () => resolve('stopped'))
        }),
    })
    const { model } = await scripted('openai-chat', [
      { type: 'reply', toolCalls: [{ id: 'call_slow', name: 'slow', arguments: '{}' }] },
      { type: 'reply', text: 'never' },
    ])
    const toolkit = await createToolkit({ tools: [slow] })
    const controller = new AbortController()
    const result = streamText({
      model: withToolkit(model, { toolkit }),
      prompt: 'Go.',
      abortSignal: controller.signal,
    })
    const consumed = result.consumeStream()
    await running
    controller.abort(new Error('user left'))
    await consumed
    expect(seen?.aborted).toBe(true)
  })

  it('ToolLoopAgent uses the wrapped model unchanged', async () => {
    const { model } = await scripted('anthropic', TWO_TOOLS)
    const toolkit = await createToolkit({ tools: [weatherTool, addTool] })
    const agent = new ToolLoopAgent({ model: withToolkit(model, { toolkit }) })
    const result = await agent.generate({ prompt: 'Weather in Chennai, and 2 + 3?' })
    expect(result.text).toContain('Chennai is sunny; 2 + 3 = 5.')
    expect(result.toolResults.map((each) => each.toolName)).toStrictEqual(['get_weather', 'add'])
  })

  it('wrapLanguageModel middleware works on either side: inside it sees each inner call, outside the one call', async () => {
    const { model } = await scripted('openai-responses', TWO_TOOLS)
    const toolkit = await createToolkit({ tools: [weatherTool, addTool] })
    const seen = { inside: 0, outside: 0 }
    const counting = (side: 'inside' | 'outside') => ({
      specificationVersion: model.specificationVersion,
      wrapGenerate: async ({ doGenerate }: { doGenerate: () => PromiseLike<unknown> }) => {
        seen[side]++
        return doGenerate()
      },
    })
    const innerWrapped = wrapLanguageModel({ model: model as never, middleware: counting('inside') as never })
    const outerWrapped = wrapLanguageModel({
      model: withToolkit(innerWrapped as Exclude<LanguageModel, string>, { toolkit }) as never,
      middleware: counting('outside') as never,
    })
    const result = await generateText({ model: outerWrapped, prompt: 'Weather in Chennai, and 2 + 3?' })
    expect(result.text).toContain('Chennai is sunny; 2 + 3 = 5.')
    expect(seen).toStrictEqual({ inside: 2, outside: 1 })
  })

  it('createToolnexus makes wrapped models by id, like the provider it wraps', async () => {
    const chosen = provider('openai-chat')
    const server = await startScriptedServer({ protocol: chosen.protocol, script: TWO_TOOLS })
    servers.push(server)
    const toolkit = await createToolkit({ tools: [weatherTool, addTool] })
    const { createOpenAI } = await import('@ai-sdk/openai')
    const openai = createOpenAI({ baseURL: server.url, apiKey: 'test-key' })
    const toolnexus = createToolnexus({ provider: openai.chat, toolkit, system: 'Be brief.' })
    const result = await generateText({
      model: toolnexus('gpt-scripted'),
      prompt: 'Weather in Chennai, and 2 + 3?',
    })
    expect(result.text).toContain('Chennai is sunny; 2 + 3 = 5.')
    expect(toolnexus.languageModel('gpt-scripted').modelId).toBe('gpt-scripted')
    const system = bodyOf<{ messages: Array<{ role: string; content: string }> }>(server, 0).messages[0]
    expect(system).toStrictEqual({ role: 'system', content: 'Be brief.' })
  })

  it('refuses what it cannot wrap, saying what to pass', async () => {
    const toolkit = await createToolkit({ tools: [addTool] })
    expect(() => withToolkit('openai/gpt-5-mini' as never, { toolkit })).toThrow(ConfigError)
    expect(() => withToolkit({} as never, { toolkit })).toThrow(/LanguageModel/)
    const { model } = await scripted('openai-chat', TWO_TOOLS)
    expect(() => withToolkit(model, {} as never)).toThrow(/toolkit/)
    expect(() => withToolkit(model, { toolkit, maxTurns: 0 })).toThrow(/maxTurns/)
  })
})

describe('withToolkit keeps Gemini thought signatures', () => {
  // Gemini signs its function calls; the signature must come back with the call on every later request.
  const signed: WireProtocol = {
    ...googleProtocol,
    json: (step, request) => sign(googleProtocol.json(step, request)),
    events: (step, request) =>
      googleProtocol
        .events(step, request)
        .map((event) => ('data' in event ? { ...event, data: sign(event.data) } : event)),
  }
  function sign(body: unknown): unknown {
    const text = JSON.stringify(body).replace(
      /"functionCall":\{"name":"(\w+)"/g,
      '"thoughtSignature":"sig-$1","functionCall":{"name":"$1"',
    )
    return JSON.parse(text)
  }

  it.each(['generate', 'stream'] as const)(
    '%s: within the run and in a conversation continued from the response messages',
    async (mode) => {
      const server = await startScriptedServer({
        protocol: signed,
        script: [
          { type: 'reply', toolCalls: [{ id: 'x', name: 'add', arguments: '{"a":1,"b":2}' }] },
          { type: 'reply', text: 'Three.' },
          { type: 'reply', text: 'You asked for 1 + 2.' },
        ],
      })
      servers.push(server)
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google')
      const model = createGoogleGenerativeAI({ baseURL: server.url, apiKey: 'test-key' })('gemini-scripted')
      const toolkit = await createToolkit({ tools: [addTool] })
      const wrapped = withToolkit(model, { toolkit })
      const ask = async (messages: ModelMessage[]) => {
        if (mode === 'generate') return (await generateText({ model: wrapped, messages })).response.messages
        const result = streamText({ model: wrapped, messages })
        return (await result.response).messages
      }
      const first = await ask([{ role: 'user', content: '1 + 2?' }])
      await ask([{ role: 'user', content: '1 + 2?' }, ...first, { role: 'user', content: 'What did I ask?' }])
      for (const index of [1, 2]) {
        const parts = bodyOf<{ contents: Array<{ parts: Array<Record<string, unknown>> }> }>(
          server,
          index,
        ).contents.flatMap((content) => content.parts)
        const call = parts.find((part) => 'functionCall' in part)
        expect(call?.thoughtSignature).toBe('sig-add')
        expect(parts.some((part) => 'functionResponse' in part)).toBe(true)
      }
    },
  )
})
