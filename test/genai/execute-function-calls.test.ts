import { ApiError, type Content, type ToolListUnion } from '@google/genai'
import { afterEach, describe, expect, it } from 'vitest'
import { toGemini } from '../../src/adapters/to-gemini.js'
import { executeFunctionCalls } from '../../src/genai/execute-function-calls.js'
import { toGenAITools } from '../../src/genai/to-genai-tools.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { explode } from '../support/explode-tool.js'
import { genaiFor, modelReply, type ScriptedGemini, startScriptedGemini } from '../support/scripted-gemini.js'
import { createGeminiPlanner } from '../support/scripted-gemini-planner.js'

const MODEL = 'gemini-2.5-flash'
let server: ScriptedGemini | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const weather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'array', items: { type: 'string' }, maxItems: 3 } },
    required: ['city'],
  },
  execute: ({ city }) => `${String(city)}: 31°C`,
})

describe('executeFunctionCalls in a hand-written generateContent loop', () => {
  it('runs the loop: the model turn appended verbatim, the answers as one user turn', async () => {
    server = await startScriptedGemini({ script: createGeminiPlanner() })
    const ai = genaiFor(server.baseUrl)
    await using toolkit = await createToolkit({ tools: [weather] })
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'What is the weather in Chennai?' }] }]
    let text: string | undefined
    for (let turn = 0; turn < 5 && text === undefined; turn++) {
      const response = await ai.models.generateContent({
        model: MODEL,
        contents,
        config: { tools: toGenAITools(toolkit) },
      })
      const modelTurn = response.candidates?.[0]?.content
      if (modelTurn === undefined) throw new Error('no candidate')
      contents.push(modelTurn)
      const answers = await executeFunctionCalls(toolkit, response)
      if (answers.parts?.length === 0) text = response.text
      else contents.push(answers)
    }
    expect(server.requests).toHaveLength(2)
    expect(server.requests[1]?.body.contents.slice(1)).toStrictEqual([
      {
        role: 'model',
        parts: [
          {
            functionCall: { name: 'get_weather', args: { city: 'Chennai', days: [] } },
            thoughtSignature: expect.any(String),
          },
        ],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'get_weather', response: { output: 'Chennai: 31°C' } } }],
      },
    ])
    expect(text).toContain('get_weather → Chennai: 31°C')
  })

  it('a model turn rebuilt from response.functionCalls loses the signature, and Gemini refuses it', async () => {
    server = await startScriptedGemini({ script: createGeminiPlanner() })
    const ai = genaiFor(server.baseUrl)
    await using toolkit = await createToolkit({ tools: [weather] })
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }]
    const response = await ai.models.generateContent({
      model: MODEL,
      contents,
      config: { tools: toGenAITools(toolkit) },
    })
    const rebuilt: Content = {
      role: 'model',
      parts: (response.functionCalls ?? []).map((functionCall) => ({ functionCall })),
    }
    contents.push(rebuilt, await executeFunctionCalls(toolkit, response))
    const refused = await ai.models
      .generateContent({ model: MODEL, contents })
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ApiError)
    expect((refused as ApiError).status).toBe(400)
    expect((refused as ApiError).message).toContain('thought_signature')
  })

  it('answers every call in order: ids only where sent, unknown and throwing tools as { error }', async () => {
    await using toolkit = await createToolkit({ tools: [weather, explode], logger: { warn: () => {} } })
    const content: Content = {
      role: 'model',
      parts: [
        { text: 'thinking', thought: true, thoughtSignature: 'c2ln' },
        { functionCall: { id: 'w1', name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'c2ln' },
        { functionCall: { name: 'get_weather', args: { city: 'Lima' } } },
        { functionCall: { name: 'teleport', args: {} } },
        { functionCall: { name: 'explode' } },
        { functionCall: { name: 'get_weather', args: { town: 'Oslo' } } },
      ],
    }
    const answers = await executeFunctionCalls(toolkit, content)
    expect(answers).toStrictEqual({
      role: 'user',
      parts: [
        { functionResponse: { id: 'w1', name: 'get_weather', response: { output: 'Oslo: 31°C' } } },
        { functionResponse: { name: 'get_weather', response: { output: 'Lima: 31°C' } } },
        { functionResponse: { name: 'teleport', response: { error: expect.stringContaining('teleport') } } },
        { functionResponse: { name: 'explode', response: { error: expect.stringContaining('kaboom') } } },
        { functionResponse: { name: 'get_weather', response: { error: expect.stringContaining('city') } } },
      ],
    })
    // The same from a whole response object, as generateContent returns it.
    expect(await executeFunctionCalls(toolkit, { candidates: [{ content }] })).toStrictEqual(answers)
  })

  it('returns a user turn without parts when there is nothing to answer', async () => {
    await using toolkit = await createToolkit({ tools: [weather] })
    expect(await executeFunctionCalls(toolkit, { role: 'model', parts: [{ text: 'Hello' }] })).toStrictEqual({
      role: 'user',
      parts: [],
    })
    expect(await executeFunctionCalls(toolkit, { candidates: [] })).toStrictEqual({ role: 'user', parts: [] })
    expect(await executeFunctionCalls(toolkit, {})).toStrictEqual({ role: 'user', parts: [] })
  })

  it('passes the signal and the timeout to the tools, and answers them as errors', async () => {
    const waits = defineTool({
      name: 'wait',
      description: 'Waits for its signal.',
      inputSchema: { type: 'object', properties: {} },
      execute: (_args, context) =>
        new Promise<string>((_resolve, reject) => {
          context?.signal?.addEventListener('abort', () => reject(new Error('stopped by signal')))
        }),
    })
    await using toolkit = await createToolkit({ tools: [waits] })
    const content: Content = { role: 'model', parts: [{ functionCall: { name: 'wait', args: {} } }] }
    const timedOut = await executeFunctionCalls(toolkit, content, { timeoutMs: 30 })
    expect(timedOut.parts?.[0]?.functionResponse?.response).toStrictEqual({
      error: expect.stringMatching(/time/i),
    })

    const controller = new AbortController()
    const aborted = executeFunctionCalls(toolkit, content, { signal: controller.signal })
    setTimeout(() => controller.abort(), 20)
    expect((await aborted).parts?.[0]?.functionResponse?.response).toStrictEqual({
      error: expect.any(String),
    })
  })
})

describe('toGenAITools', () => {
  it('is toGemini typed for the SDK, and the SDK never rewrites the declarations it was given', async () => {
    await using toolkit = await createToolkit({ tools: [weather, explode] })
    const tools: ToolListUnion = toGenAITools(toolkit)
    expect(tools).toStrictEqual(toGemini(toolkit.tools()))
    expect(toGenAITools(toolkit.tools(), { parametersJsonSchema: true })).toStrictEqual(
      toGemini(toolkit.tools(), { parametersJsonSchema: true }),
    )
    const before = structuredClone(tools)
    server = await startScriptedGemini({ script: [modelReply([{ text: 'ok' }])] })
    await genaiFor(server.baseUrl).models.generateContent({ model: MODEL, contents: 'hi', config: { tools } })
    // The SDK upper-cases types on the wire, and keeps the int64 limit as given.
    expect(server.requests[0]?.body.tools?.[0]?.functionDeclarations?.[0]?.parameters).toStrictEqual({
      type: 'OBJECT',
      properties: {
        city: { type: 'STRING' },
        days: { type: 'ARRAY', items: { type: 'STRING' }, maxItems: 3 },
      },
      required: ['city'],
    })
    expect(tools).not.toStrictEqual(before)
    // …which is why the transport hands it fresh copies of its cached declarations.
    expect(toGenAITools(toolkit)).toStrictEqual(before)
  })
})
