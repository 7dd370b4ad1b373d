// OpenAI strict mode: every schema rewritten into the form strict mode accepts, the model's null for an
// optional argument read as absent, and a tool strict mode cannot take sent without it, with a warning.
import { readdirSync, readFileSync } from 'node:fs'
import { createOpenAI } from '@ai-sdk/openai'
import { generateText, stepCountIs } from 'ai'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { convertJsonSchemaToOpenAIStrictSchema } from '../../src/adapters/openai-strict-schema/convert-json-schema-to-openai-strict-schema.js'
import { toAISDK } from '../../src/adapters/to-ai-sdk.js'
import { toOpenAI } from '../../src/adapters/to-openai.js'
import { createClient } from '../../src/client/create-client.js'
import { withToolkit } from '../../src/provider-form/with-toolkit.js'
import { defineTool } from '../../src/tool/define-tool.js'
import type { JSONSchema, Tool } from '../../src/tool/types.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { openAIStrictProblems } from '../support/openai-strict-rules.js'
import { openaiChatProtocol, openaiResponsesProtocol } from '../support/scripted-openai.js'
import { startScriptedServer } from '../support/scripted-server.js'

const strictRules: { rule: string; schema: JSONSchema; expected: JSONSchema }[] = [
  {
    rule: 'every property required, optional ones nullable, additionalProperties false',
    schema: {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
      required: ['city'],
    },
    expected: {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: ['integer', 'null'], minimum: 1 } },
      required: ['city', 'days'],
      additionalProperties: false,
    },
  },
  {
    rule: 'keywords strict mode does not take move into the description',
    schema: {
      type: 'object',
      properties: { name: { type: 'string', minLength: 2, maxLength: 9, default: 'x', description: 'Name' } },
      required: ['name'],
    },
    expected: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Name. Min length: 2. Max length: 9. Default: x.' },
      },
      required: ['name'],
      additionalProperties: false,
    },
  },
  {
    rule: 'oneOf becomes anyOf; an optional enum gains null',
    schema: {
      type: 'object',
      properties: {
        id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        unit: { enum: ['c', 'f'], type: 'string' },
      },
      required: ['id'],
    },
    expected: {
      type: 'object',
      properties: {
        id: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        unit: { type: ['string', 'null'], enum: ['c', 'f', null] },
      },
      required: ['id', 'unit'],
      additionalProperties: false,
    },
  },
  {
    rule: '$ref and $defs are kept (strict mode resolves them), definitions made strict too',
    schema: {
      type: 'object',
      properties: { node: { $ref: '#/$defs/Node' } },
      $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
    },
    expected: {
      type: 'object',
      properties: { node: { anyOf: [{ $ref: '#/$defs/Node' }, { type: 'null' }] } },
      required: ['node'],
      additionalProperties: false,
      $defs: {
        Node: {
          type: 'object',
          properties: { next: { anyOf: [{ $ref: '#/$defs/Node' }, { type: 'null' }] } },
          required: ['next'],
          additionalProperties: false,
        },
      },
    },
  },
  {
    rule: 'only the definitions a reference reaches are sent (one nothing uses cannot refuse the tool)',
    schema: {
      type: 'object',
      properties: { owner: { $ref: '#/$defs/User' } },
      required: ['owner'],
      $defs: {
        User: { type: 'object', properties: { team: { $ref: '#/$defs/Team' } }, required: ['team'] },
        Team: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        Unused: { type: 'object', properties: { anything: {} } },
      },
    },
    expected: {
      type: 'object',
      properties: { owner: { $ref: '#/$defs/User' } },
      required: ['owner'],
      additionalProperties: false,
      $defs: {
        User: {
          type: 'object',
          properties: { team: { $ref: '#/$defs/Team' } },
          required: ['team'],
          additionalProperties: false,
        },
        Team: {
          type: 'object',
          properties: { name: { type: 'string' } },
          required: ['name'],
          additionalProperties: false,
        },
      },
    },
  },
  {
    rule: 'a free-form object or an array without items goes as JSON text',
    schema: {
      type: 'object',
      properties: {
        url: { type: 'string' },
        headers: { type: 'object', description: 'Optional headers' },
        data: { type: 'object', additionalProperties: { type: 'string' } },
        rows: { type: 'array' },
        link: { type: ['object', 'null'] },
      },
      required: ['url', 'data', 'link'],
    },
    expected: {
      type: 'object',
      properties: {
        url: { type: 'string' },
        headers: {
          type: ['string', 'null'],
          description: 'Optional headers. Write the object as JSON text, like {"name": "value"}.',
        },
        data: { type: 'string', description: 'Write the object as JSON text, like {"name": "value"}.' },
        rows: { type: ['string', 'null'], description: 'Write the array as JSON text, like ["a", "b"].' },
        link: {
          type: ['string', 'null'],
          description: 'Write the object as JSON text, like {"name": "value"}.',
        },
      },
      required: ['url', 'headers', 'data', 'rows', 'link'],
      additionalProperties: false,
    },
  },
  {
    rule: 'a format strict mode does not know is said in the description',
    schema: { type: 'object', properties: { site: { type: 'string', format: 'uri' } }, required: ['site'] },
    expected: {
      type: 'object',
      properties: { site: { type: 'string', description: 'Format: uri.' } },
      required: ['site'],
      additionalProperties: false,
    },
  },
]

describe('convertJsonSchemaToOpenAIStrictSchema', () => {
  it.each(strictRules)('$rule', ({ schema, expected }) => {
    const conversion = convertJsonSchemaToOpenAIStrictSchema(schema)
    expect(conversion.kind).toBe('strict')
    if (conversion.kind !== 'strict') return
    expect(conversion.schema).toStrictEqual(expected)
    expect(openAIStrictProblems(conversion.schema)).toStrictEqual([])
  })

  it.each([
    {
      shape: 'a value of any type',
      schema: { type: 'object', properties: { value: {} } },
      reason: /allows any value/,
    },
    {
      shape: 'arguments that are a free-form object',
      schema: { type: 'object', additionalProperties: { type: 'string' } },
      reason: /the arguments is a free-form object/,
    },
    {
      shape: 'a union at the root',
      schema: { anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }] },
      reason: /root is a union/,
    },
  ])('refuses $shape, saying why', ({ schema, reason }) => {
    const conversion = convertJsonSchemaToOpenAIStrictSchema(schema as JSONSchema)
    expect(conversion.kind).toBe('refused')
    if (conversion.kind === 'refused') expect(conversion.reasons.join('; ')).toMatch(reason)
  })

  it('never mutates its input', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', minLength: 1 } } }
    const before = structuredClone(schema)
    convertJsonSchemaToOpenAIStrictSchema(schema)
    expect(schema).toStrictEqual(before)
  })
})

const fixturesDirectory = new URL('./__fixtures__/schemas/', import.meta.url)
const corpus = readdirSync(fixturesDirectory)
  .filter((file) => file.endsWith('.json'))
  .flatMap((file) => {
    const fixture = JSON.parse(readFileSync(new URL(file, fixturesDirectory), 'utf8')) as {
      tools: { name: string; inputSchema: JSONSchema }[]
    }
    return fixture.tools.map((tool) => ({ file, ...tool }))
  })

describe('the lowering corpus in strict mode', () => {
  it.each(corpus)('$file $name: strict and accepted, or refused with a reason', ({ inputSchema }) => {
    const conversion = convertJsonSchemaToOpenAIStrictSchema(inputSchema)
    if (conversion.kind === 'strict') expect(openAIStrictProblems(conversion.schema)).toStrictEqual([])
    else expect(conversion.reasons.length).toBeGreaterThan(0)
  })
})

function tool(name: string, inputSchema: JSONSchema, seen: Record<string, unknown>[] = []): Tool {
  return defineTool({
    name,
    description: `The ${name} tool.`,
    inputSchema,
    execute: (args) => {
      seen.push(args)
      return 'ok'
    },
  })
}

const weatherSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
  required: ['city'],
  additionalProperties: false,
}

describe('toOpenAI(tools, { strict: true })', () => {
  it('marks each tool strict, or sends a tool strict mode cannot take without it and warns', () => {
    const warnings: string[] = []
    const tools = toOpenAI(
      [tool('weather', weatherSchema), tool('free', { type: 'object', properties: { x: {} } })],
      {
        strict: true,
        logger: { warn: (message) => warnings.push(message) },
      },
    )
    expect(tools.map((each) => each.function.strict)).toStrictEqual([true, false])
    expect(openAIStrictProblems(tools[0]?.function.parameters)).toStrictEqual([])
    expect(warnings).toStrictEqual([
      'Tool "free" is sent without OpenAI strict mode: the arguments.x allows any value; strict mode needs a type.',
    ])
  })

  it('leaves toOpenAI(tools) as it was', () => {
    const [only] = toOpenAI([tool('weather', weatherSchema)])
    expect(only?.function).toStrictEqual({
      name: 'weather',
      description: 'The weather tool.',
      parameters: weatherSchema,
    })
  })
})

describe('strict mode over the wire', () => {
  it('createClient({ strict: true }): the endpoint enforcing strict rules accepts the tools, and null reaches the tool as absent', async () => {
    const server = await startScriptedServer({
      protocol: openaiChatProtocol,
      script: [
        {
          type: 'reply',
          toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Chennai","days":null}' }],
        },
        { type: 'reply', text: 'sunny' },
      ],
    })
    try {
      const seen: Record<string, unknown>[] = []
      await using toolkit = await createToolkit({ tools: [tool('weather', weatherSchema, seen)] })
      const model = createOpenAI({ baseURL: server.url, apiKey: 'k' }).chat('gpt-scripted')
      const result = await createClient({ model, strict: true }).run('weather?', { toolkit })
      expect(result.text).toBe('sunny')
      expect(seen).toStrictEqual([{ city: 'Chennai' }])
      const declared = server.requests[0]?.body.tools[0].function
      expect(declared.strict).toBe(true)
      expect(declared.parameters.required).toStrictEqual(['city', 'days'])
    } finally {
      await server.close()
    }
  })

  describe('createClient and withToolkit with { strict: true, logger }', () => {
    afterEach(() => {
      vi.restoreAllMocks()
    })

    it.each([
      { entry: 'createClient', given: 'a logger', clientLogger: true },
      { entry: 'createClient', given: 'no logger', clientLogger: false },
      { entry: 'withToolkit', given: 'a logger', clientLogger: true },
      { entry: 'withToolkit', given: 'no logger', clientLogger: false },
    ])(
      '$entry with $given: a tool strict mode cannot take is warned about to the toolkit’s logger and the given one, never the console',
      async ({ entry, clientLogger }) => {
        const server = await startScriptedServer({
          protocol: openaiChatProtocol,
          script: [{ type: 'reply', text: 'done' }],
        })
        const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => {})
        try {
          const toolkitWarnings: string[] = []
          const clientWarnings: string[] = []
          await using toolkit = await createToolkit({
            tools: [tool('free', { type: 'object', properties: { x: {} } })],
            logger: { warn: (message) => toolkitWarnings.push(message) },
          })
          const model = createOpenAI({ baseURL: server.url, apiKey: 'k' }).chat('gpt-scripted')
          const logger = { warn: (message: string) => clientWarnings.push(message) }
          const options = { strict: true, ...(clientLogger && { logger }) }
          if (entry === 'createClient') await createClient({ model, ...options }).run('go', { toolkit })
          else await generateText({ model: withToolkit(model, { toolkit, ...options }), prompt: 'go' })
          const warning =
            'Tool "free" is sent without OpenAI strict mode: the arguments.x allows any value; strict mode needs a type.'
          expect(toolkitWarnings).toStrictEqual([warning])
          expect(clientWarnings).toStrictEqual(clientLogger ? [warning] : [])
          expect(consoleWarn).not.toHaveBeenCalled()
          expect(server.requests[0]?.body.tools[0].function.strict).toBe(false)
        } finally {
          await server.close()
        }
      },
    )
  })

  it('the endpoint refuses a strict tool whose schema breaks the rules, as OpenAI does', async () => {
    const server = await startScriptedServer({
      protocol: openaiChatProtocol,
      script: [{ type: 'reply', text: 'never' }],
    })
    try {
      const response = await fetch(`${server.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'm',
          messages: [{ role: 'user', content: 'hi' }],
          tools: [
            { type: 'function', function: { name: 'weather', parameters: weatherSchema, strict: true } },
          ],
        }),
      })
      expect(response.status).toBe(400)
      expect(await response.text()).toContain("Missing 'days'")
    } finally {
      await server.close()
    }
  })

  it('toAISDK(tools, { strict: true }) with the AI SDK’s OpenAI Responses provider: strict per tool, null read as absent', async () => {
    const server = await startScriptedServer({
      protocol: openaiResponsesProtocol,
      script: [
        {
          type: 'reply',
          toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Pune","days":null}' }],
        },
        { type: 'reply', text: 'done' },
      ],
    })
    try {
      const seen: Record<string, unknown>[] = []
      const model = createOpenAI({ baseURL: server.url, apiKey: 'k' }).responses('gpt-scripted')
      const { text } = await generateText({
        model,
        tools: toAISDK([tool('weather', weatherSchema, seen)], { strict: true }),
        stopWhen: stepCountIs(3),
        prompt: 'weather?',
      })
      expect(text).toBe('done')
      expect(seen).toStrictEqual([{ city: 'Pune' }])
      expect(server.requests[0]?.body.tools[0].strict).toBe(true)
    } finally {
      await server.close()
    }
  })
})
