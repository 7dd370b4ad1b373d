import { generateText, stepCountIs, streamText } from 'ai'
import { describe, expect, it } from 'vitest'
import { toAISDK } from '../../src/adapters/to-ai-sdk.js'
import { ToolResultError } from '../../src/errors.js'
import { defineTool } from '../../src/tool/define-tool.js'
import type { Tool, ToolContext } from '../../src/tool/types.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import {
  aiMajor,
  MockLanguageModel,
  textResult,
  textStream,
  toolCallResult,
  toolCallStream,
} from './mock-language-model.js'

const weather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }) => {
    if (city === 'Atlantis') throw new Error('no such city')
    return `sunny in ${String(city)}`
  },
})

// The tool-result parts of the prompt the model received on its second call.
function toolResultsOfSecondCall(model: InstanceType<typeof MockLanguageModel>) {
  const prompt = model.doGenerateCalls[1]?.prompt ?? []
  return prompt.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) =>
          part.type === 'tool-result' ? [{ toolCallId: part.toolCallId, output: part.output }] : [],
        )
      : [],
  )
}

describe(`toAISDK inside generateText (ai ${aiMajor})`, () => {
  it('sends the JSON Schema and the description to the model', async () => {
    const model = new MockLanguageModel({ doGenerate: [textResult('hi')] })
    await generateText({ model, tools: toAISDK([weather]), prompt: 'hello' })
    // JSON, as the provider would send it (ai 6 adds `providerOptions: undefined`).
    expect(JSON.parse(JSON.stringify(model.doGenerateCalls[0]?.tools))).toMatchInlineSnapshot(`
      [
        {
          "description": "Current weather for a city",
          "inputSchema": {
            "properties": {
              "city": {
                "type": "string",
              },
            },
            "required": [
              "city",
            ],
            "type": "object",
          },
          "name": "get_weather",
          "type": "function",
        },
      ]
    `)
  })

  it.each([
    {
      label: 'a successful call reaches the model as text',
      input: { city: 'Chennai' },
      output: { type: 'text', value: 'sunny in Chennai' },
    },
    {
      label: 'a throwing tool reaches the model as error-text',
      input: { city: 'Atlantis' },
      output: { type: 'error-text', value: 'Tool "get_weather" failed: no such city' },
    },
    {
      label: 'arguments that break the schema reach the model as error-text, naming the argument',
      input: { town: 'Chennai' },
      output: {
        type: 'error-text',
        value: 'Invalid arguments for tool "get_weather": city: required argument is missing',
      },
    },
  ])('$label', async ({ input, output }) => {
    const model = new MockLanguageModel({
      doGenerate: [
        toolCallResult({ toolCallId: 'call-1', toolName: 'get_weather', input }),
        textResult('done'),
      ],
    })
    const result = await generateText({
      model,
      tools: toAISDK([weather]),
      stopWhen: stepCountIs(3),
      prompt: 'weather?',
    })
    expect(result.text).toBe('done')
    expect(toolResultsOfSecondCall(model)).toStrictEqual([{ toolCallId: 'call-1', output }])
  })

  it('an isError result is a tool-error whose error is a ToolResultError carrying the metadata', async () => {
    const failing: Tool = {
      name: 'flaky',
      description: 'Always fails',
      inputSchema: { type: 'object', properties: {} },
      source: 'custom',
      execute: async () => ({ output: 'upstream said 503', isError: true, metadata: { status: 503 } }),
    }
    const model = new MockLanguageModel({
      doGenerate: [toolCallResult({ toolCallId: 'c1', toolName: 'flaky', input: {} }), textResult('ok')],
    })
    const result = await generateText({
      model,
      tools: toAISDK([failing]),
      stopWhen: stepCountIs(3),
      prompt: 'x',
    })
    const errors = result.steps.flatMap((step) => step.content).filter((part) => part.type === 'tool-error')
    expect(errors).toHaveLength(1)
    const error = errors[0]?.error
    expect(ToolResultError.isInstance(error)).toBe(true)
    expect(ToolResultError.isInstance(error) && error.metadata).toStrictEqual({ status: 503 })
    expect(toolResultsOfSecondCall(model)).toStrictEqual([
      { toolCallId: 'c1', output: { type: 'error-text', value: 'upstream said 503' } },
    ])
  })

  it('a custom tool that throws (breaking the Tool contract) still reaches the model as error-text', async () => {
    const broken: Tool = {
      name: 'broken',
      description: 'Throws',
      inputSchema: { type: 'object', properties: {} },
      source: 'custom',
      execute: async () => {
        throw new Error('socket closed')
      },
    }
    const model = new MockLanguageModel({
      doGenerate: [toolCallResult({ toolCallId: 'c1', toolName: 'broken', input: {} }), textResult('ok')],
    })
    await generateText({ model, tools: toAISDK([broken]), stopWhen: stepCountIs(3), prompt: 'x' })
    expect(toolResultsOfSecondCall(model)).toStrictEqual([
      { toolCallId: 'c1', output: { type: 'error-text', value: 'Tool "broken" failed: socket closed' } },
    ])
  })

  it('tk.toAISDK() runs each call through the toolkit: its timeout and output cap hold', async () => {
    const slow: Tool = {
      name: 'slow',
      description: 'Never answers',
      inputSchema: { type: 'object', properties: {} },
      source: 'custom',
      execute: () => new Promise(() => {}),
    }
    const chatty = defineTool({ name: 'chatty', description: 'Talks', execute: () => 'x'.repeat(60) })
    const tk = await createToolkit({ tools: [slow, chatty], toolTimeoutMs: 50, maxOutputChars: 40 })
    const model = new MockLanguageModel({
      doGenerate: [
        {
          ...toolCallResult({ toolCallId: 'c1', toolName: 'slow', input: {} }),
          content: [
            ...toolCallResult({ toolCallId: 'c1', toolName: 'slow', input: {} }).content,
            ...toolCallResult({ toolCallId: 'c2', toolName: 'chatty', input: {} }).content,
          ],
        },
        textResult('ok'),
      ],
    })
    await generateText({ model, tools: tk.toAISDK(), stopWhen: stepCountIs(3), prompt: 'x' })
    expect(toolResultsOfSecondCall(model)).toStrictEqual([
      { toolCallId: 'c1', output: { type: 'error-text', value: 'Tool "slow" timed out after 50 ms.' } },
      {
        toolCallId: 'c2',
        output: { type: 'text', value: `${'x'.repeat(40)}\n…[output truncated: 20 more characters]` },
      },
    ])
  })

  it('passes the AI SDK toolCallId and abortSignal to Tool.execute', async () => {
    const seen: ToolContext[] = []
    const probe: Tool = {
      name: 'probe',
      description: 'Records its context',
      inputSchema: { type: 'object', properties: {} },
      source: 'custom',
      execute: async (_args, context = {}) => {
        seen.push(context)
        return { output: 'ok', isError: false }
      },
    }
    const controller = new AbortController()
    const model = new MockLanguageModel({
      doGenerate: [toolCallResult({ toolCallId: 'call-42', toolName: 'probe', input: {} }), textResult('ok')],
    })
    await generateText({
      model,
      tools: toAISDK([probe]),
      stopWhen: stepCountIs(3),
      prompt: 'x',
      abortSignal: controller.signal,
    })
    expect(seen).toHaveLength(1)
    expect(seen[0]?.toolCallId).toBe('call-42')
    expect(seen[0]?.signal).toBeInstanceOf(AbortSignal)
    // The AI SDK may merge signals; aborting ours must reach the tool's.
    controller.abort()
    expect(seen[0]?.signal?.aborted).toBe(true)
  })

  it('streamText: an error result reaches the UI stream as tool-output-error', async () => {
    const model = new MockLanguageModel({
      doStream: [
        toolCallStream({ toolCallId: 'call-1', toolName: 'get_weather', input: { city: 'Atlantis' } }),
        textStream('sorry'),
      ],
    })
    const result = streamText({ model, tools: toAISDK([weather]), stopWhen: stepCountIs(3), prompt: 'x' })
    const chunks: { type: string; errorText?: string; output?: unknown }[] = []
    // ai 6 masks error details in the UI stream unless `onError` says otherwise; ai 7 sends the model's text.
    for await (const chunk of result.toUIMessageStream({ onError: (error) => String(error) }))
      chunks.push(chunk)
    const toolChunks = chunks.filter((chunk) => chunk.type.startsWith('tool-output'))
    expect(toolChunks).toStrictEqual([
      expect.objectContaining({
        type: 'tool-output-error',
        toolCallId: 'call-1',
        errorText: 'Tool "get_weather" failed: no such city',
      }),
    ])
    expect(await result.text).toBe('sorry')
  })
})

describe('toAISDK shape', () => {
  it('keys the set by exposed name, in order, and never shares the schema object', () => {
    const other = defineTool({ name: 'ping', description: 'Health check', execute: () => 'pong' })
    const set = toAISDK([weather, other])
    expect(Object.keys(set)).toStrictEqual(['get_weather', 'ping'])
    expect(set.get_weather?.description).toBe('Current weather for a city')
    const schema = set.get_weather?.inputSchema
    expect(schema && 'jsonSchema' in schema ? schema.jsonSchema : undefined).toStrictEqual(
      weather.inputSchema,
    )
    expect(schema && 'jsonSchema' in schema ? schema.jsonSchema : undefined).not.toBe(weather.inputSchema)
  })

  it('an empty list is an empty tool set', () => {
    expect(toAISDK([])).toStrictEqual({})
  })

  it('gives each set its own schema copy, and follows the toolkit when its tools change', async () => {
    const tk = await createToolkit({ tools: [weather] })
    const first = tk.toAISDK()
    const second = tk.toAISDK()
    const schemaOf = (set: ReturnType<typeof toAISDK>, name: string) => {
      const schema = set[name]?.inputSchema
      return schema && 'jsonSchema' in schema ? schema.jsonSchema : undefined
    }
    expect(schemaOf(first, 'get_weather')).toStrictEqual(weather.inputSchema)
    expect(schemaOf(first, 'get_weather')).not.toBe(schemaOf(second, 'get_weather'))
    tk.register(defineTool({ name: 'ping', description: 'Health check', execute: () => 'pong' }))
    expect(Object.keys(tk.toAISDK())).toStrictEqual(['get_weather', 'ping'])
    expect(Object.keys(first)).toStrictEqual(['get_weather'])
  })
})
