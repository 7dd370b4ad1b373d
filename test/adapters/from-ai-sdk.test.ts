import { openai } from '@ai-sdk/openai'
import { generateText, jsonSchema, stepCountIs, type ToolSet, tool } from 'ai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { fromAISDK } from '../../src/adapters/from-ai-sdk.js'
import { toAISDK } from '../../src/adapters/to-ai-sdk.js'
import { defineTool } from '../../src/tool/define-tool.js'
import type { ToolResult } from '../../src/tool/types.js'
import { aiMajor, MockLanguageModel, textResult, toolCallResult } from './mock-language-model.js'

function recordingLogger() {
  const warnings: string[] = []
  return { warnings, logger: { warn: (message: string) => warnings.push(message) } }
}

// A Standard Schema (v1) with JSON Schema support, written by hand: no schema library involved.
const cityStandardSchema = {
  '~standard': {
    version: 1 as const,
    vendor: 'hand-written',
    validate: (value: unknown) =>
      typeof value === 'object' && value !== null && typeof (value as { city?: unknown }).city === 'string'
        ? { value: { city: (value as { city: string }).city.toUpperCase() } }
        : { issues: [{ message: 'city must be a string', path: ['city'] }] },
    jsonSchema: {
      input: () => ({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
      output: () => ({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
    },
  },
}

describe(`fromAISDK (ai ${aiMajor})`, () => {
  it('reads a zod tool: JSON Schema from asSchema, zod defaults applied, object output as JSON text', async () => {
    const tools = await fromAISDK({
      weather: tool({
        description: 'Current weather for a city',
        inputSchema: z.object({ city: z.string(), unit: z.enum(['c', 'f']).default('c') }),
        execute: async ({ city, unit }) => ({ city, unit, sky: 'sunny' }),
      }),
    })
    expect(tools).toHaveLength(1)
    const [weather] = tools
    expect(weather?.name).toBe('weather')
    expect(weather?.source).toBe('ai-sdk')
    expect(weather?.description).toBe('Current weather for a city')
    expect(weather?.inputSchema).toMatchInlineSnapshot(`
      {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "additionalProperties": false,
        "properties": {
          "city": {
            "type": "string",
          },
          "unit": {
            "default": "c",
            "enum": [
              "c",
              "f",
            ],
            "type": "string",
          },
        },
        "required": [
          "city",
        ],
        "type": "object",
      }
    `)
    expect(await weather?.execute({ city: 'Chennai' })).toStrictEqual({
      output: '{"city":"Chennai","unit":"c","sky":"sunny"}',
      isError: false,
    })
  })

  it('zod validation failures are error results and the tool does not run', async () => {
    let runs = 0
    const [counted] = await fromAISDK({
      counted: tool({
        inputSchema: z.object({ count: z.number().int() }),
        execute: async ({ count }) => {
          runs += 1
          return count
        },
      }),
    })
    const result = await counted?.execute({ count: 'three' })
    expect(result?.isError).toBe(true)
    expect(result?.output).toMatch(/^Invalid arguments for tool "counted": /)
    expect(result?.output).toContain('count')
    expect(runs).toBe(0)
  })

  it('reads a jsonSchema() tool whose schema is a promise', async () => {
    const [echo] = await fromAISDK({
      echo: tool({
        description: 'Echoes',
        inputSchema: jsonSchema<{ text: string }>(
          Promise.resolve({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }),
        ),
        execute: async ({ text }) => text,
      }),
    })
    expect(echo?.inputSchema).toStrictEqual({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    })
    expect(await echo?.execute({ text: 'hi' })).toStrictEqual({ output: 'hi', isError: false })
  })

  it('reads a Standard Schema tool and runs its validation (the transformed value reaches execute)', async () => {
    const [shout] = await fromAISDK({
      shout: tool({ inputSchema: cityStandardSchema, execute: async ({ city }) => `in ${city}` }),
    })
    expect(shout?.inputSchema).toStrictEqual({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    })
    expect(await shout?.execute({ city: 'chennai' })).toStrictEqual({ output: 'in CHENNAI', isError: false })
    const rejected = await shout?.execute({ city: 7 })
    expect(rejected?.isError).toBe(true)
    expect(rejected?.output).toContain('city must be a string')
  })

  const outputs: { label: string; execute: () => unknown; expected: ToolResult }[] = [
    {
      label: 'an async-iterable output yields its last value',
      execute: async function* () {
        yield 'searching…'
        yield { hits: 2 }
      },
      expected: { output: '{"hits":2}', isError: false },
    },
    {
      label: 'an MCP-style isError result is an error with the joined text',
      execute: async () => ({
        isError: true,
        content: [
          { type: 'text', text: 'permission denied' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'text', text: 'see logs' },
        ],
      }),
      expected: { output: 'permission denied\nsee logs', isError: true },
    },
    {
      label: 'an MCP-style isError result without text keeps its content as JSON',
      execute: async () => ({
        isError: true,
        content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }],
      }),
      expected: { output: '[{"type":"image","data":"AAAA","mimeType":"image/png"}]', isError: true },
    },
    {
      label: 'a throw is an error result naming the tool',
      execute: async () => {
        throw new Error('disk full')
      },
      expected: { output: 'Tool "job" failed: disk full', isError: true },
    },
    {
      label: 'undefined is an empty output',
      execute: async () => undefined,
      expected: { output: '', isError: false },
    },
    {
      label: 'a number is its JSON text',
      execute: () => 42,
      expected: { output: '42', isError: false },
    },
  ]
  it.each(outputs)('$label', async ({ execute, expected }) => {
    const [job] = await fromAISDK({ job: tool({ inputSchema: z.object({}), execute }) })
    expect(await job?.execute({})).toStrictEqual(expected)
  })

  it('passes toolCallId, messages and abortSignal (and both context names) to execute', async () => {
    const seen: Record<string, unknown>[] = []
    const [probe] = await fromAISDK({
      probe: tool({
        inputSchema: z.object({}),
        execute: async (_input, options) => {
          seen.push({ ...options })
          return 'ok'
        },
      }),
    })
    const controller = new AbortController()
    await probe?.execute({}, { toolCallId: 'call-7', signal: controller.signal })
    await probe?.execute({})
    expect(seen[0]).toStrictEqual({
      toolCallId: 'call-7',
      messages: [],
      abortSignal: controller.signal,
      context: undefined,
      experimental_context: undefined,
    })
    // Without an id from the caller, each call still gets a distinct one.
    expect(seen[1]?.toolCallId).toMatch(/^toolnexus-/)
    expect(seen[1]?.toolCallId).not.toBe(seen[0]?.toolCallId)
  })

  it('skips provider-defined tools and tools without execute, with a warning naming each', async () => {
    const { warnings, logger } = recordingLogger()
    const toolSet: ToolSet = {
      web_search: openai.tools.webSearch({}),
      client_side: tool({ description: 'Runs in the browser', inputSchema: z.object({ x: z.string() }) }),
      kept: tool({ inputSchema: z.object({}), execute: async () => 'ok' }),
    }
    const tools = await fromAISDK(toolSet, { logger })
    expect(tools.map((each) => each.name)).toStrictEqual(['kept'])
    expect(warnings).toStrictEqual([
      'Skipped AI SDK tool "web_search" (openai.web_search): it is provider-defined, so its schema and behaviour belong to one provider and cannot be offered to others.',
      'Skipped AI SDK tool "client_side": it has no execute function, so there is nothing to run.',
    ])
  })

  it('skips a tool whose schema cannot be read or is not an object, saying why', async () => {
    const { warnings, logger } = recordingLogger()
    const noJsonSchema = {
      '~standard': { version: 1, vendor: 'opaque', validate: (value: unknown) => ({ value }) },
    }
    // Deliberately malformed tools, which the AI SDK's types rightly refuse.
    const malformed = {
      opaque: { inputSchema: noJsonSchema, execute: async () => 'x' },
      scalar: { inputSchema: z.string(), execute: async () => 'x' },
    } as unknown as ToolSet
    const tools = await fromAISDK(malformed, { logger })
    expect(tools).toStrictEqual([])
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toMatch(
      /^Skipped AI SDK tool "opaque": its input schema could not be read \(.*opaque.*\)/,
    )
    expect(warnings[1]).toMatch(
      /^Skipped AI SDK tool "scalar": .*root of inputSchema must be \{ type: "object" \}/,
    )
  })

  it('sanitizes names with a warning, and keeps the first of two names that collide', async () => {
    const { warnings, logger } = recordingLogger()
    const make = (output: string) => tool({ inputSchema: z.object({}), execute: async () => output })
    const tools = await fromAISDK({ 'files.read': make('first'), files_read: make('second') }, { logger })
    expect(tools.map((each) => each.name)).toStrictEqual(['files_read'])
    expect(await tools[0]?.execute({})).toStrictEqual({ output: 'first', isError: false })
    expect(warnings).toStrictEqual([
      'AI SDK tool "files.read" is exposed as "files_read" (names allow [a-zA-Z0-9_-], 1–64).',
      'AI SDK tools "files.read" and "files_read" both become "files_read": kept "files.read", skipped "files_read".',
    ])
  })

  it('round-trips: toAISDK → fromAISDK keeps schema, output and errors', async () => {
    const weather = defineTool({
      name: 'get_weather',
      description: 'Current weather for a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: ({ city }) => {
        if (city === 'Atlantis') throw new Error('no such city')
        return `sunny in ${String(city)}`
      },
    })
    const [back] = await fromAISDK(toAISDK([weather]))
    expect(back?.name).toBe('get_weather')
    expect(back?.description).toBe(weather.description)
    expect(back?.inputSchema).toStrictEqual(weather.inputSchema)
    const failing = await fromAISDK(
      toAISDK([
        {
          ...weather,
          name: 'with_metadata',
          execute: async () => ({ output: 'HTTP 503: busy', isError: true, metadata: { status: 503 } }),
        },
      ]),
    )
    expect(await failing[0]?.execute({ city: 'x' })).toStrictEqual({
      output: 'HTTP 503: busy',
      isError: true,
      metadata: { status: 503 },
    })
    expect(await back?.execute({ city: 'Chennai' })).toStrictEqual({
      output: 'sunny in Chennai',
      isError: false,
    })
    expect(await back?.execute({ city: 'Atlantis' })).toStrictEqual({
      output: 'Tool "get_weather" failed: no such city',
      isError: true,
    })
  })

  it('round-trips: an AI SDK zod tool → fromAISDK → toAISDK runs inside generateText', async () => {
    const tools = await fromAISDK({
      add: tool({
        description: 'Adds two numbers',
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        execute: async ({ a, b }) => ({ sum: a + b }),
      }),
    })
    const model = new MockLanguageModel({
      doGenerate: [
        toolCallResult({ toolCallId: 'c1', toolName: 'add', input: { a: 2, b: 3 } }),
        textResult('5'),
      ],
    })
    const result = await generateText({
      model,
      tools: toAISDK(tools),
      stopWhen: stepCountIs(3),
      prompt: '2+3',
    })
    const results = result.steps.flatMap((step) => step.content).filter((part) => part.type === 'tool-result')
    expect(results.map((part) => part.output)).toStrictEqual(['{"sum":5}'])
  })
})
