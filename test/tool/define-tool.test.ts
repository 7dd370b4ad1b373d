import { jsonSchema } from 'ai'
import type { JSONSchema7 } from 'json-schema'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ToolDefinitionError } from '../../src/errors.js'
import { type DefineToolOptions, defineTool } from '../../src/tool/define-tool.js'
import type { InputSchema } from '../../src/tool/to-json-schema.js'
import type { JSONSchema, ToolContext } from '../../src/tool/types.js'

const citySchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }

// A Standard Schema (v1) with JSON Schema support, written by hand: no schema library.
const standardCity = {
  '~standard': {
    version: 1,
    vendor: 'hand-written',
    validate: (value: unknown) => ({ value }),
    jsonSchema: { input: () => citySchema, output: () => citySchema },
  },
}

const accepted: { kind: string; inputSchema: InputSchema | undefined; expected: JSONSchema }[] = [
  { kind: 'JSON Schema', inputSchema: citySchema as InputSchema, expected: citySchema },
  {
    kind: 'zod 4',
    inputSchema: z.object({ city: z.string() }),
    expected: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    },
  },
  {
    kind: 'Standard Schema with JSON Schema',
    inputSchema: standardCity,
    expected: { ...citySchema, additionalProperties: false },
  },
  { kind: 'AI SDK jsonSchema()', inputSchema: jsonSchema(citySchema as JSONSchema7), expected: citySchema },
  {
    kind: 'a zod shape (the MCP SDK way): the object it describes',
    inputSchema: {
      city: z.string(),
      days: z.number().int().optional(),
      unit: z.enum(['c', 'f']).default('c'),
    },
    expected: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
        unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
      },
      required: ['city'],
      additionalProperties: false,
    },
  },
  {
    kind: 'nothing (a tool without arguments)',
    inputSchema: undefined,
    expected: { type: 'object', properties: {} },
  },
  {
    kind: 'JSON Schema without type or properties',
    inputSchema: { required: [] },
    expected: { required: [], type: 'object', properties: {} },
  },
]

describe('defineTool: every accepted schema becomes plain JSON Schema', () => {
  it.each(accepted)('$kind', async ({ inputSchema, expected }) => {
    const tool = defineTool({
      name: 'get_weather',
      description: 'Weather',
      ...(inputSchema === undefined ? {} : { inputSchema }),
      execute: () => 'ok',
    })
    expect(tool.inputSchema).toStrictEqual(expected)
    expect(tool.source).toBe('native')
  })

  it('a zod shape checks its arguments like the object it describes', async () => {
    const tool = defineTool({
      name: 'get_weather',
      description: 'Weather',
      inputSchema: { city: z.string() },
      execute: ({ city }) => `sunny in ${city}`,
    })
    expect(await tool.execute({ city: 'Chennai' })).toStrictEqual({
      output: 'sunny in Chennai',
      isError: false,
    })
    const wrong = await tool.execute({ town: 1 })
    expect(wrong.isError).toBe(true)
    expect(wrong.output).toContain('city: required argument is missing')
  })

  it('copies the schema: later changes to the caller’s object do not reach the tool', () => {
    const schema = structuredClone(citySchema)
    const tool = defineTool({ name: 'w', description: '', inputSchema: schema, execute: () => 'ok' })
    ;(schema.properties.city as { type: string }).type = 'number'
    expect(tool.inputSchema).toStrictEqual(citySchema)
  })
})

describe('defineTool: what execute may return', () => {
  it.each([
    { label: 'a string is the output', value: 'sunny', expected: { output: 'sunny', isError: false } },
    {
      label: 'a ToolResult stays as it is',
      value: { output: 'nope', isError: true, metadata: { code: 7 } },
      expected: { output: 'nope', isError: true, metadata: { code: 7 } },
    },
    {
      label: 'an object becomes its JSON text',
      value: { temp: 31 },
      expected: { output: '{"temp":31}', isError: false },
    },
    { label: 'a number becomes its JSON text', value: 42, expected: { output: '42', isError: false } },
    { label: 'undefined is an empty output', value: undefined, expected: { output: '', isError: false } },
    {
      label: 'a promise is awaited',
      value: Promise.resolve('later'),
      expected: { output: 'later', isError: false },
    },
    {
      label: 'a value that can be neither JSON nor text is named by its kind',
      value: unprintable(),
      expected: { output: '[unprintable object]', isError: false },
    },
    {
      label: 'the same value, resolved later',
      value: Promise.resolve(unprintable()),
      expected: { output: '[unprintable object]', isError: false },
    },
  ])('$label', async ({ value, expected }) => {
    const tool = defineTool({ name: 't', description: '', execute: () => value })
    expect(await tool.execute({})).toStrictEqual(expected)
  })

  it.each([
    {
      label: 'a throw becomes an error result naming the tool',
      execute: () => {
        throw new Error('disk full')
      },
      output: 'Tool "t" failed: disk full',
    },
    {
      label: 'a rejection too',
      execute: () => Promise.reject(new TypeError('bad')),
      output: 'Tool "t" failed: bad',
    },
    {
      label: 'a thrown string too',
      execute: () => {
        throw 'plain text'
      },
      output: 'Tool "t" failed: plain text',
    },
    {
      label: 'a thrown value that can be neither JSON nor text is named by its kind',
      execute: () => {
        throw unprintable()
      },
      output: 'Tool "t" failed: [unprintable object]',
    },
  ])('$label', async ({ execute, output }) => {
    const tool = defineTool({ name: 't', description: '', execute })
    await expect(tool.execute({})).resolves.toStrictEqual({ output, isError: true })
  })

  it('arguments that break the schema never reach execute, and the error names the argument', async () => {
    let runs = 0
    const tool = defineTool({
      name: 'get_weather',
      description: '',
      inputSchema: citySchema,
      execute: () => {
        runs += 1
        return 'ok'
      },
    })
    expect(await tool.execute({ city: 7 })).toStrictEqual({
      output:
        'Invalid arguments for tool "get_weather": city: Instance type "number" is invalid. Expected "string".',
      isError: true,
    })
    expect(await tool.execute({})).toStrictEqual({
      output: 'Invalid arguments for tool "get_weather": city: required argument is missing',
      isError: true,
    })
    expect(runs).toBe(0)
  })

  it('passes the context through', async () => {
    const seen: ToolContext[] = []
    const tool = defineTool({
      name: 't',
      description: '',
      execute: (_args, context) => {
        seen.push(context)
        return 'ok'
      },
    })
    const signal = new AbortController().signal
    await tool.execute({}, { toolCallId: 'c1', signal, timeoutMs: 5 })
    await tool.execute({})
    expect(seen).toStrictEqual([{ toolCallId: 'c1', signal, timeoutMs: 5 }, {}])
  })
})

// Deliberately malformed definitions, as untyped JavaScript or a config could hand them over.
const rejected: { label: string; options: Record<string, unknown>; message: string | RegExp }[] = [
  {
    label: 'a name with spaces suggests the sanitized one',
    options: { name: 'get weather', execute: () => 'x' },
    message:
      'Tool name "get weather" is not allowed: use 1–64 characters from [a-zA-Z0-9_-]. Try "get_weather".',
  },
  {
    label: 'an empty name',
    options: { name: '', execute: () => 'x' },
    message: 'Tool name "" is not allowed: use 1–64 characters from [a-zA-Z0-9_-].',
  },
  {
    label: 'a name over 64 characters suggests a short one',
    options: { name: 'x'.repeat(65), execute: () => 'x' },
    message: /^Tool name "x{65}" is not allowed: .* Try "x{55}_[0-9a-f]{8}"\.$/,
  },
  {
    label: 'no execute function',
    options: { name: 't', execute: 'nope' },
    message: 'Tool "t": execute must be a function.',
  },
  {
    label: 'a root that is not an object',
    options: { name: 't', inputSchema: { type: 'string' }, execute: () => 'x' },
    message:
      'Tool "t": the root of inputSchema must be { type: "object" } (tool arguments are always an object), got type "string". Wrap the value in an object property.',
  },
  {
    label: 'a zod scalar root',
    options: { name: 't', inputSchema: z.string(), execute: () => 'x' },
    message: /^Tool "t": the root of inputSchema must be \{ type: "object" \}/,
  },
  {
    label: 'a Standard Schema without JSON Schema support',
    options: {
      name: 't',
      inputSchema: { '~standard': { version: 1, vendor: 'opaque', validate: () => ({}) } },
      execute: () => 'x',
    },
    message:
      /^Tool "t": inputSchema could not be converted to JSON Schema \(.*\)\. Pass a JSON Schema object, a zod 4 schema/,
  },
  {
    label: 'a schema that resolves asynchronously',
    options: {
      name: 't',
      inputSchema: jsonSchema(Promise.resolve(citySchema as JSONSchema7)),
      execute: () => 'x',
    },
    message:
      'Tool "t": inputSchema resolves to JSON Schema asynchronously. Resolve it first: inputSchema: await asSchema(schema).jsonSchema.',
  },
  {
    label: 'a zod shape with a value that is not a schema',
    options: { name: 't', inputSchema: { city: z.string(), days: 3 }, execute: () => 'x' },
    message:
      'Tool "t": inputSchema mixes schemas (a zod shape like { city: z.string() }) with other values: "days" is not a schema. Write every property as a schema, or pass z.object({ ... }) or a JSON Schema.',
  },
  {
    label: 'a schema holding a function',
    options: {
      name: 't',
      inputSchema: { type: 'object', properties: {}, check: () => true },
      execute: () => 'x',
    },
    message: 'Tool "t": inputSchema must be plain JSON data (no functions or class instances).',
  },
]

describe('defineTool: what cannot be represented fails at definition, saying what to change', () => {
  it.each(rejected)('$label', ({ options, message }) => {
    const define = () => defineTool({ description: '', ...options } as unknown as DefineToolOptions)
    expect(define).toThrow(ToolDefinitionError)
    expect(define).toThrow(message)
  })

  it('the error is a branded ToolDefinitionError', () => {
    try {
      defineTool({ name: 'bad name', description: '', execute: () => 'x' })
      expect.unreachable()
    } catch (error) {
      expect(ToolDefinitionError.isInstance(error)).toBe(true)
      expect((error as Error).name).toBe('ToolDefinitionError')
    }
  })
})

/** An object JSON.stringify and String both throw on: a throwing getter, and no prototype to print with. */
function unprintable(): object {
  return Object.create(null, {
    value: {
      enumerable: true,
      get() {
        throw new Error('unreadable')
      },
    },
  })
}
