import { describe, expect, it } from 'vitest'
import { createToolkit, defineTool, toGemini } from '../../src/index.js'
import { coerceScalarStrings } from '../../src/tool/coerce-scalar-strings.js'

describe('coerceScalarStrings', () => {
  it.each([
    { name: 'integer', schema: { type: 'integer' }, value: '60', expected: 60 },
    { name: 'negative number with exponent', schema: { type: 'number' }, value: '-1.5e2', expected: -150 },
    { name: 'a fraction is not an integer', schema: { type: 'integer' }, value: '1.5', expected: '1.5' },
    { name: 'boolean', schema: { type: 'boolean' }, value: 'false', expected: false },
    { name: 'text that is not a number', schema: { type: 'number' }, value: '12abc', expected: '12abc' },
    { name: 'hex is not a number here', schema: { type: 'number' }, value: '0x10', expected: '0x10' },
    { name: 'a string type stays text', schema: { type: ['string', 'number'] }, value: '7', expected: '7' },
    { name: 'mixed enum', schema: { enum: ['auto', 1, 2] }, value: '2', expected: 2 },
    { name: 'enum text kept', schema: { enum: ['auto', 1] }, value: 'auto', expected: 'auto' },
    { name: 'const', schema: { const: true }, value: 'true', expected: true },
    {
      name: 'nullable through anyOf',
      schema: { anyOf: [{ type: 'integer', enum: [60, 1440] }, { type: 'null' }] },
      value: '1440',
      expected: 1440,
    },
    {
      name: 'nested properties and items',
      schema: {
        type: 'object',
        properties: {
          list: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } },
        },
      },
      value: { list: [{ n: '1' }, { n: 2 }], other: '3' },
      expected: { list: [{ n: 1 }, { n: 2 }], other: '3' },
    },
    { name: 'an object as JSON text', schema: { type: 'object' }, value: '{"a": 1}', expected: { a: 1 } },
    { name: 'an array as JSON text', schema: { type: 'array' }, value: ' [1, 2]', expected: [1, 2] },
    { name: 'JSON text of the other kind stays', schema: { type: 'object' }, value: '[1]', expected: '[1]' },
    { name: 'text that is not JSON stays', schema: { type: 'object' }, value: '{a: 1}', expected: '{a: 1}' },
    {
      name: 'a string type keeps JSON text',
      schema: { type: ['object', 'string'] },
      value: '{}',
      expected: '{}',
    },
    {
      name: 'JSON text through a $ref',
      schema: {
        type: 'object',
        properties: { link: { $ref: '#/$defs/Link' } },
        $defs: { Link: { type: ['object', 'null'] } },
      },
      value: { link: '{"url": "https://example.com"}' },
      expected: { link: { url: 'https://example.com' } },
    },
  ])('$name', ({ schema, value, expected }) => {
    expect(coerceScalarStrings(schema, value)).toStrictEqual(expected)
  })

  it('returns the same object when nothing changes, and never mutates', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } } }
    const untouched = { n: 1 }
    expect(coerceScalarStrings(schema, untouched)).toBe(untouched)
    const input = { n: '1' }
    expect(coerceScalarStrings(schema, input)).toStrictEqual({ n: 1 })
    expect(input).toStrictEqual({ n: '1' })
  })
})

describe('a Gemini string enum round trip through the toolkit', () => {
  const archive = defineTool({
    name: 'archive',
    description: 'Archive after a delay',
    inputSchema: {
      type: 'object',
      properties: { minutes: { type: 'integer', enum: [60, 1440] }, notify: { type: 'boolean' } },
      required: ['minutes'],
    },
    execute: ({ minutes, notify }) => ({ minutes, notify, kinds: [typeof minutes, typeof notify] }),
  })

  it('declares the enum as strings and runs the tool with the declared types', async () => {
    const toolkit = await createToolkit({ tools: [archive] })
    const [wrapper] = toGemini(toolkit.tools())
    expect(wrapper.functionDeclarations[0]?.parameters?.properties?.minutes).toStrictEqual({
      type: 'string',
      enum: ['60', '1440'],
    })
    // What Gemini sends back for that declaration: the enum value as text.
    const result = await toolkit.execute('archive', { minutes: '1440', notify: 'true' })
    expect(result).toStrictEqual({
      output: '{"minutes":1440,"notify":true,"kinds":["number","boolean"]}',
      isError: false,
    })
  })

  it('still rejects text that is not one of the values, naming the argument', async () => {
    const toolkit = await createToolkit({ tools: [archive] })
    const result = await toolkit.execute('archive', { minutes: '61' })
    expect(result.isError).toBe(true)
    expect(result.output).toContain('minutes')
  })
})
