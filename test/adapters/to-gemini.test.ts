import { readdirSync, readFileSync } from 'node:fs'
import type { ToolListUnion } from '@google/genai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { convertJsonSchemaToGeminiSchema } from '../../src/adapters/gemini-schema/convert-json-schema-to-gemini-schema.js'
import { toAnthropic } from '../../src/adapters/to-anthropic.js'
import { toGemini } from '../../src/adapters/to-gemini.js'
import { toOpenAI } from '../../src/adapters/to-openai.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { renamedProperties } from '../../src/tool/property-names.js'
import type { JSONSchema, Tool } from '../../src/tool/types.js'
import { geminiSubsetProblems, geminiToolsProblems } from '../support/gemini-subset.js'
import { genaiFor, modelReply, type ScriptedGemini, startScriptedGemini } from '../support/scripted-gemini.js'

// What an "any value" node lowers to: every kind Gemini can say, each typed, an array holding any scalar or
// object; a description goes on each branch.
function anyValue(description?: string): { anyOf: Record<string, unknown>[] } {
  const kinds = ['string', 'number', 'boolean', 'object']
  const labelled = (type: string) => (description === undefined ? { type } : { type, description })
  return {
    anyOf: [
      ...kinds.map(labelled),
      { ...labelled('array'), items: { anyOf: kinds.map((type) => ({ type })) } },
    ],
  }
}

const weather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }) => `sunny in ${String(city)}`,
})
const ping = defineTool({ name: 'ping', description: 'Health check', execute: () => 'pong' })

function toolWith(name: string, inputSchema: JSONSchema, description = ''): Tool {
  return {
    name,
    description,
    inputSchema,
    source: 'custom',
    execute: async () => ({ output: '', isError: false }),
  }
}

// What the formats share for `weather` and `ping`.
const WEATHER = { name: 'get_weather', description: 'Current weather for a city' }
const CITY_PARAMETERS = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }
const PING = { name: 'ping', description: 'Health check' }
const NO_PARAMETERS = { type: 'object', properties: {} }

describe('each format, pinned', () => {
  it.each([
    [
      'toOpenAI',
      () => toOpenAI([weather, ping]),
      [
        { type: 'function', function: { ...WEATHER, parameters: CITY_PARAMETERS } },
        { type: 'function', function: { ...PING, parameters: NO_PARAMETERS } },
      ],
    ],
    [
      'toAnthropic',
      () => toAnthropic([weather, ping]),
      [
        { ...WEATHER, input_schema: CITY_PARAMETERS },
        { ...PING, input_schema: NO_PARAMETERS },
      ],
    ],
    [
      'toGemini: one wrapper, one declaration per tool in order; a tool without arguments has no parameters',
      () => toGemini([weather, ping]),
      [{ functionDeclarations: [{ ...WEATHER, parameters: CITY_PARAMETERS }, PING] }],
    ],
  ])('%s', (_, convert, expected) => {
    expect(convert()).toStrictEqual(expected)
  })

  it('toGemini with parametersJsonSchema: the schema unchanged, as a copy', () => {
    const zodLike = toolWith('search', {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { q: { type: ['string', 'null'] }, n: { type: 'integer', enum: [1, 2] } },
      additionalProperties: false,
    })
    const [wrapper] = toGemini([zodLike, ping], { parametersJsonSchema: true })
    expect(wrapper.functionDeclarations).toStrictEqual([
      { name: 'search', description: '', parametersJsonSchema: zodLike.inputSchema },
      { ...PING, parametersJsonSchema: NO_PARAMETERS },
    ])
    expect(wrapper.functionDeclarations[0]?.parametersJsonSchema).not.toBe(zodLike.inputSchema)
  })

  it.each([
    { count: 0, names: [] },
    { count: 1, names: ['t0'] },
    { count: 5, names: ['t0', 't1', 't2', 't3', 't4'] },
  ])('toGemini of $count tools is still exactly one wrapper', ({ count, names }) => {
    const tools = Array.from({ length: count }, (_, index) =>
      toolWith(`t${index}`, { type: 'object', properties: {} }),
    )
    const result = toGemini(tools)
    expect(result).toHaveLength(1)
    expect(result[0].functionDeclarations.map((declaration) => declaration.name)).toStrictEqual(names)
  })
})

// Each row: one lowering rule of toGemini, as a property of an object root.
const loweringRules: { rule: string; property: unknown; expected: unknown; defs?: JSONSchema }[] = [
  { rule: 'const → one-value enum', property: { const: 'c' }, expected: { type: 'string', enum: ['c'] } },
  {
    rule: 'type [T, null] → nullable',
    property: { type: ['string', 'null'], description: 'Note' },
    expected: { type: 'string', description: 'Note', nullable: true },
  },
  {
    rule: 'anyOf with a null branch → nullable',
    property: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }] },
    expected: { type: 'integer', nullable: true, minimum: 0 },
  },
  {
    rule: 'other type arrays → anyOf alone on its node, keywords kept per type',
    property: { type: ['string', 'integer'], maxLength: 5, maximum: 9, description: 'Id' },
    expected: {
      anyOf: [
        { type: 'string', description: 'Id', maxLength: 5 },
        { type: 'integer', description: 'Id', maximum: 9 },
      ],
    },
  },
  {
    rule: 'oneOf → anyOf; keys beside it go into every branch',
    property: {
      type: 'object',
      description: 'Target',
      oneOf: [
        { properties: { id: { type: 'string' } }, required: ['id'] },
        { properties: { url: { type: 'string' } }, required: ['url'] },
      ],
    },
    expected: {
      anyOf: [
        { type: 'object', description: 'Target', properties: { id: { type: 'string' } }, required: ['id'] },
        { type: 'object', description: 'Target', properties: { url: { type: 'string' } }, required: ['url'] },
      ],
    },
  },
  {
    rule: 'a nullable union keeps anyOf alone and marks each branch',
    property: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
    expected: {
      anyOf: [
        { type: 'string', nullable: true },
        { type: 'number', nullable: true },
      ],
    },
  },
  {
    rule: 'allOf of objects merged',
    property: {
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { properties: { b: { type: 'boolean' } }, required: ['b'], additionalProperties: false },
      ],
    },
    expected: {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'boolean' } },
      required: ['a', 'b'],
    },
  },
  {
    rule: 'string enum kept; numbers in a string enum become strings',
    property: { type: 'string', enum: ['a', 1, true] },
    expected: { type: 'string', enum: ['a', '1', 'true'] },
  },
  {
    rule: 'numeric enum → a string enum of the values (Gemini takes enum on strings only)',
    property: { type: 'integer', enum: [60, 1440], description: 'Minutes' },
    expected: { type: 'string', description: 'Minutes', enum: ['60', '1440'] },
  },
  {
    rule: 'boolean const → a one-value string enum',
    property: { type: 'boolean', const: true },
    expected: { type: 'string', enum: ['true'] },
  },
  {
    rule: 'enum of mixed scalar kinds → one string enum',
    property: { enum: ['auto', 1, 2] },
    expected: { type: 'string', enum: ['auto', '1', '2'] },
  },
  {
    rule: 'enum mixing scalars and objects → one branch per kind',
    property: { enum: ['auto', { mode: 'x' }] },
    expected: {
      anyOf: [
        { type: 'string', enum: ['auto'] },
        { type: 'object', description: 'Allowed values: {"mode":"x"}.' },
      ],
    },
  },
  {
    rule: 'unsupported format moves into the description; supported format kept',
    property: {
      type: 'object',
      properties: { site: { type: 'string', format: 'uri' }, at: { type: 'string', format: 'date-time' } },
    },
    expected: {
      type: 'object',
      properties: {
        site: { type: 'string', description: 'Format: uri.' },
        at: { type: 'string', format: 'date-time' },
      },
    },
  },
  {
    rule: 'exclusive bounds: exact for integers, closed for numbers',
    property: {
      type: 'object',
      properties: {
        page: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 },
        ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
        old: { type: 'integer', minimum: 5, exclusiveMinimum: true },
        // -0 cannot be written as JSON: it leaves as 0.
        signed: { type: 'number', exclusiveMinimum: -0, maximum: -0 },
      },
    },
    expected: {
      type: 'object',
      properties: {
        page: { type: 'integer', minimum: 1, maximum: 9 },
        ratio: { type: 'number', minimum: 0, maximum: 1 },
        old: { type: 'integer', minimum: 6 },
        signed: { type: 'number', minimum: 0, maximum: 0 },
      },
    },
  },
  {
    rule: 'keys outside the subset dropped',
    property: {
      type: 'array',
      items: { type: 'number', multipleOf: 0.5 },
      uniqueItems: true,
      contains: { type: 'number' },
      $comment: 'x',
      examples: [[1]],
      deprecated: true,
      readOnly: true,
    },
    expected: { type: 'array', example: [1], items: { type: 'number' } },
  },
  {
    rule: 'an object: additionalProperties and propertyNames dropped, required only naming properties',
    property: {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a', 'ghost', 'a'],
      additionalProperties: { type: 'string' },
      propertyNames: { pattern: '^[a-z]+$' },
      minProperties: 1,
    },
    expected: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], minProperties: 1 },
  },
  {
    rule: '$ref inlined, keys beside it win',
    property: { $ref: '#/$defs/Zip', description: 'Postal code' },
    defs: { Zip: { type: 'string', pattern: '^[0-9]{5}$', description: 'Zip' } },
    expected: { type: 'string', description: 'Postal code', pattern: '^[0-9]{5}$' },
  },
  {
    rule: 'a recursive $ref is expanded once, then cut with a note',
    property: { $ref: '#/$defs/Node' },
    defs: {
      Node: { type: 'object', properties: { label: { type: 'string' }, next: { $ref: '#/$defs/Node' } } },
    },
    expected: {
      type: 'object',
      properties: {
        label: { type: 'string' },
        next: { type: 'object', description: 'Recursive: same shape as Node (not expanded further).' },
      },
    },
  },
  {
    rule: 'an unresolvable $ref keeps what is beside it',
    property: { $ref: 'https://example.com/config.json', description: 'Config' },
    expected: anyValue('Config'),
  },
  {
    rule: 'an array without items still gets typed items (Gemini requires them): any value',
    property: { type: 'array' },
    expected: { type: 'array', items: anyValue() },
  },
  {
    rule: 'a free-form property ({}, true) is any value: the union of every kind, each typed',
    property: true,
    expected: anyValue(),
  },
  {
    rule: 'a property with only a description is any value, the description on every branch',
    property: { description: 'Anything' },
    expected: anyValue('Anything'),
  },
  {
    rule: 'a tuple position {} is any value',
    property: { type: 'array', prefixItems: [{ type: 'string' }, {}] },
    expected: { type: 'array', items: { anyOf: [{ type: 'string' }, ...anyValue().anyOf] } },
  },
  {
    rule: 'a $ref to an untyped definition is any value',
    property: { $ref: '#/$defs/Free' },
    defs: { Free: { description: 'Free' } },
    expected: anyValue('Free'),
  },
  {
    rule: 'a format alone says string',
    property: { format: 'uuid' },
    expected: { type: 'string', description: 'Format: uuid.' },
  },
  {
    rule: 'tuples become the union of their positions',
    property: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }, { type: 'string' }] },
    expected: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
  },
  {
    rule: 'type inferred where a server left it out',
    property: { properties: { q: { minLength: 1 } }, required: ['q'] },
    expected: { type: 'object', properties: { q: { type: 'string', minLength: 1 } }, required: ['q'] },
  },
  {
    rule: 'title, default and example kept',
    property: { type: 'integer', title: 'Count', default: 3, example: 5 },
    expected: { type: 'integer', title: 'Count', default: 3, example: 5 },
  },
]

// An object whose one (required) property is named `__proto__`, as JSON text: a literal would set the prototype.
const PROTO_PROPERTY =
  '{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}'

describe('convertJsonSchemaToGeminiSchema', () => {
  it.each(loweringRules)('$rule', ({ property, expected, defs }) => {
    const input: JSONSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { value: property },
      ...(defs === undefined ? {} : { $defs: defs }),
    }
    const before = structuredClone(input)
    const lowered = convertJsonSchemaToGeminiSchema(input)
    expect(lowered).toStrictEqual({ type: 'object', properties: { value: expected } })
    expect(geminiSubsetProblems(lowered)).toStrictEqual([])
    expect(input).toStrictEqual(before)
  })

  it('a discriminated union at the root becomes one object: every property, required only when all agree', () => {
    expect(
      convertJsonSchemaToGeminiSchema({
        type: 'object',
        oneOf: [
          {
            properties: { kind: { const: 'circle' }, radius: { type: 'number' } },
            required: ['kind', 'radius'],
          },
          { properties: { kind: { const: 'square' }, side: { type: 'number' } }, required: ['kind', 'side'] },
        ],
      }),
    ).toStrictEqual({
      type: 'object',
      properties: {
        kind: { type: 'string', enum: ['circle', 'square'] },
        radius: { type: 'number' },
        side: { type: 'number' },
      },
      required: ['kind'],
    })
  })

  it('the result shares no object with the input', () => {
    const input: JSONSchema = {
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string' }, default: ['a'] } },
    }
    const lowered = convertJsonSchemaToGeminiSchema(input)
    const tags = lowered.properties?.tags
    expect(tags?.default).toStrictEqual(['a'])
    expect(tags?.default).not.toBe((input.properties as { tags: { default: unknown } }).tags.default)
  })

  it.each([
    {
      label: 'a JS-level cycle',
      make: () => {
        const schema: Record<string, unknown> = { type: 'object' }
        schema.properties = { self: schema }
        return schema
      },
    },
    { label: 'null properties', make: () => ({ type: 'object', properties: null, required: 'a' }) },
    {
      label: 'a $ref chain that loops',
      make: () => ({
        type: 'object',
        properties: { a: { $ref: '#/$defs/x' } },
        $defs: { x: { $ref: '#/$defs/y' }, y: { $ref: '#/$defs/x' } },
      }),
    },
    {
      label: 'deep nesting',
      make: () => {
        let node: Record<string, unknown> = { type: 'string' }
        for (let depth = 0; depth < 500; depth++) node = { type: 'object', properties: { child: node } }
        return node
      },
    },
    { label: '__proto__ as a property name', make: () => JSON.parse(PROTO_PROPERTY) },
  ])('never throws on weird input: $label', ({ make }) => {
    const lowered = convertJsonSchemaToGeminiSchema(make())
    expect(
      geminiSubsetProblems(lowered).filter((problem) => !problem.includes('properties must not be empty')),
    ).toStrictEqual([])
  })

  it('keeps a __proto__ property as a property, not a prototype', () => {
    const lowered = convertJsonSchemaToGeminiSchema(JSON.parse(PROTO_PROPERTY))
    expect(Object.keys(lowered.properties ?? {})).toStrictEqual(['__proto__'])
    expect(lowered.required).toStrictEqual(['__proto__'])
    expect(Object.getPrototypeOf(lowered.properties)).toBe(Object.prototype)
  })
})

function lowerCaseTypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(lowerCaseTypes)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === 'type' && typeof inner === 'string' ? inner.toLowerCase() : lowerCaseTypes(inner),
    ]),
  )
}

interface Fixture {
  source: string
  tools: { name: string; description: string; inputSchema: JSONSchema }[]
}
const fixturesDirectory = new URL('./__fixtures__/schemas/', import.meta.url)
const fixtures = readdirSync(fixturesDirectory)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => ({
    file,
    fixture: JSON.parse(readFileSync(new URL(file, fixturesDirectory), 'utf8')) as Fixture,
  }))
const corpus = fixtures.flatMap(({ file, fixture }) =>
  fixture.tools.map((tool) => ({
    id: `${file} › ${tool.name}`,
    tool: toolWith(tool.name.replace(/[^a-zA-Z0-9_-]/g, '_'), tool.inputSchema, tool.description),
  })),
)

/** The tools of one corpus file, by name, in the file's order. */
function corpusTools(file: string, names: readonly string[]): Tool[] {
  const fixture = fixtures.find((each) => each.file === file)?.fixture
  return (fixture?.tools ?? [])
    .filter((tool) => names.includes(tool.name))
    .map((tool) => toolWith(tool.name, tool.inputSchema, tool.description))
}

// Shapes the corpus pins repeat: a zod email string, and a recursive $ref cut after one expansion.
const EMAIL = {
  type: 'string',
  description: 'Format: email.',
  pattern:
    "^(?:[A-Za-z0-9_'+\\-]+\\.)*[A-Za-z0-9_'+\\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$",
}
const RECURSIVE_ENTRY = {
  type: 'object',
  description: 'Recursive: same shape as entry (not expanded further).',
}

describe('the real-world schema corpus', () => {
  it('holds at least 30 schemas from 7 sources', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(7)
    expect(corpus.length).toBeGreaterThanOrEqual(30)
  })

  it.each(corpus)('$id: inside the subset, meaning kept, input untouched', ({ tool }) => {
    const before = structuredClone(tool.inputSchema)
    const tools = toGemini([tool])
    expect(geminiToolsProblems(tools)).toStrictEqual([])
    expect(tool.inputSchema).toStrictEqual(before)

    const declaration = tools[0].functionDeclarations[0]
    expect(declaration?.name).toBe(tool.name)
    expect(declaration?.description).toBe(tool.description)
    // Every argument the schema names directly is still declared, and still required when it was. (Roots
    // built from allOf/oneOf are pinned by snapshot below.)
    const combined = ['allOf', 'oneOf', 'anyOf'].some((key) => key in tool.inputSchema)
    if (combined) return
    const properties = tool.inputSchema.properties
    const names = typeof properties === 'object' && properties !== null ? Object.keys(properties) : []
    // A name Gemini refuses is declared under its sent name.
    const sent = renamedProperties(names)
    const declared = Object.keys(declaration?.parameters?.properties ?? {})
    expect(declared).toStrictEqual(expect.arrayContaining(names.map((name) => sent.get(name) ?? name)))
    const required = Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required : []
    expect(declaration?.parameters?.required ?? []).toStrictEqual(
      required.filter((name) => names.includes(name)).map((name) => sent.get(name) ?? name),
    )
    if (names.length === 0) {
      expect(declaration?.parameters).toBeUndefined()
    }
  })

  it.each([
    [
      'the MCP-shaped tools',
      'mcp-server-shapes.json',
      ['list_commits', 'create_thread', 'browser_click'],
      [
        {
          name: 'list_commits',
          description: 'Get list of commits of a branch in a repository',
          parameters: {
            type: 'object',
            properties: {
              owner: { type: 'string', description: 'Repository owner' },
              repo: { type: 'string', description: 'Repository name' },
              sha: { type: 'string', description: 'SHA or branch name', nullable: true },
              page: { type: 'integer', description: 'Page number', minimum: 1 },
              perPage: { type: 'integer', minimum: 1, maximum: 100 },
              author: { type: 'string', description: 'Format: email.' },
              since: { type: 'string', format: 'date-time' },
            },
            required: ['owner', 'repo'],
          },
        },
        {
          name: 'create_thread',
          description: 'Create a thread in a chat channel',
          parameters: {
            type: 'object',
            properties: {
              channel_id: { type: 'string', pattern: '^[0-9]+$' },
              name: { type: 'string', minLength: 1, maxLength: 100 },
              auto_archive_duration: {
                type: 'string',
                description: 'Minutes of inactivity before archiving',
                enum: ['60', '1440', '4320', '10080'],
              },
              rate_limit: { type: 'string', enum: ['0', '0.5', '1.5'] },
              invitable: { type: 'string', enum: ['true', 'false'] },
              tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
              mode: {
                type: 'string',
                description: 'auto or a level',
                nullable: true,
                enum: ['auto', '1', '2'],
              },
            },
            required: ['channel_id', 'name'],
          },
        },
        {
          name: 'browser_click',
          description: 'Perform click on a web page',
          parameters: {
            type: 'object',
            properties: {
              element: { type: 'string', description: 'Human-readable element description' },
              ref: { type: 'string', description: 'Exact target element reference from the page snapshot' },
              button: { type: 'string', enum: ['left', 'right', 'middle'] },
              modifiers: {
                type: 'array',
                items: { type: 'string', enum: ['Alt', 'Control', 'Meta', 'Shift'] },
              },
              position: {
                type: 'object',
                properties: { x: { type: 'number' }, y: { type: 'number' } },
                required: ['x', 'y'],
              },
              headers: { type: 'object' },
              payload: anyValue(),
              anything: anyValue(),
            },
            required: ['element', 'ref'],
          },
        },
      ],
    ],
    [
      'zod output with const, nullable, unions, records and tuples',
      'zod-4-draft-07-input.json',
      ['create_event'],
      [
        {
          name: 'create_event',
          description: '',
          parameters: {
            type: 'object',
            properties: {
              kind: { type: 'string', description: 'Always "meeting"', enum: ['meeting'] },
              title: { type: 'string', minLength: 1, maxLength: 120 },
              attendees: { type: 'array', items: EMAIL, minItems: 1, maxItems: 50 },
              priority: { type: 'integer', minimum: 1, maximum: 5 },
              notes: { type: 'string', nullable: true },
              location: {
                anyOf: [
                  { type: 'string' },
                  {
                    type: 'object',
                    properties: { lat: { type: 'number' }, lng: { type: 'number' } },
                    required: ['lat', 'lng'],
                  },
                ],
              },
              reminder: {
                anyOf: [
                  {
                    type: 'object',
                    properties: { type: { type: 'string', enum: ['email'] }, address: EMAIL },
                    required: ['type', 'address'],
                  },
                  {
                    type: 'object',
                    properties: {
                      type: { type: 'string', enum: ['popup'] },
                      minutesBefore: { type: 'integer', minimum: 1, maximum: 9007199254740991 },
                    },
                    required: ['type', 'minutesBefore'],
                  },
                ],
              },
              labels: { type: 'object' },
              window: {
                type: 'array',
                items: {
                  type: 'string',
                  format: 'date-time',
                  pattern:
                    '^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z))$',
                },
                minItems: 2,
                maxItems: 2,
              },
              status: { type: 'string', enum: ['draft', 'confirmed'], default: 'draft' },
              count: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
              ratio: { type: 'number', minimum: 0, maximum: 1 },
            },
            required: [
              'kind',
              'title',
              'attendees',
              'notes',
              'location',
              'reminder',
              'labels',
              'window',
              'count',
              'ratio',
            ],
          },
        },
      ],
    ],
    [
      'recursion and root unions',
      'refs-and-combinators.json',
      ['file_tree', 'merge_all_of', 'shape'],
      [
        {
          name: 'file_tree',
          description: 'A recursive tree through definitions',
          parameters: {
            type: 'object',
            properties: {
              tree: {
                type: 'object',
                properties: {
                  name: { type: 'string' },
                  children: { type: 'array', items: RECURSIVE_ENTRY },
                  parent: { ...RECURSIVE_ENTRY, nullable: true },
                },
                required: ['name'],
              },
            },
            required: ['tree'],
          },
        },
        {
          name: 'merge_all_of',
          description: 'allOf of objects',
          parameters: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              version: { type: 'integer', minimum: 1 },
              reason: { type: 'string', description: 'Why' },
            },
            required: ['id', 'version'],
          },
        },
        {
          name: 'shape',
          description: 'A discriminated union at the root',
          parameters: {
            type: 'object',
            properties: {
              kind: { type: 'string', enum: ['circle', 'square'] },
              radius: { type: 'number', minimum: 0 },
              side: { type: 'number' },
            },
            required: ['kind'],
          },
        },
      ],
    ],
  ])('pins what the model sees for %s', (_, file, names, declarations) => {
    expect(toGemini(corpusTools(file, names))).toStrictEqual([{ functionDeclarations: declarations }])
  })
})

describe('toGemini through the real @google/genai SDK', () => {
  let gemini: ScriptedGemini
  beforeAll(async () => {
    gemini = await startScriptedGemini({ script: () => modelReply([{ text: 'ok' }]) })
  })
  afterAll(() => gemini.close())
  /** The tools of the last request the SDK sent. */
  const sentTools = (): unknown => gemini.requests.at(-1)?.body.tools

  it('sends every corpus declaration inside the subset, and leaves our result and the tools untouched', async () => {
    const ai = genaiFor(gemini.baseUrl)
    const tools = corpus.map(({ tool }) => tool)
    const before = structuredClone(tools.map((tool) => tool.inputSchema))
    const declarations = toGemini(tools)
    const ours = structuredClone(declarations)
    // The SDK types `Schema.type` as a TypeScript enum (and counts as strings), so no plain object type is
    // assignable to it; the wire shape is the same, and the SDK upper-cases the types itself.
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'hi',
      config: { tools: declarations as unknown as ToolListUnion },
    })
    expect(response.text).toBe('ok')
    // The SDK upper-cases `type` (OBJECT, STRING, …); the subset is the same either way.
    const sent = lowerCaseTypes(sentTools())
    expect(geminiToolsProblems(sent)).toStrictEqual([])
    expect(tools.map((tool) => tool.inputSchema)).toStrictEqual(before)
    expect(ours).toStrictEqual(structuredClone(toGemini(tools)))
  })

  it('pins the body the SDK sends for one tool', async () => {
    const ai = genaiFor(gemini.baseUrl)
    const search = toolWith('search', {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { q: { type: ['string', 'null'] }, limit: { type: 'integer', enum: [10, 50] } },
      required: ['q'],
      additionalProperties: false,
    })
    await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'hi',
      config: { tools: toGemini([search]) as unknown as ToolListUnion },
    })
    // The SDK upper-cases the types; a numeric enum is sent as strings.
    expect(sentTools()).toStrictEqual([
      {
        functionDeclarations: [
          {
            name: 'search',
            description: '',
            parameters: {
              type: 'OBJECT',
              properties: {
                limit: { type: 'STRING', enum: ['10', '50'] },
                q: { type: 'STRING', nullable: true },
              },
              required: ['q'],
            },
          },
        ],
      },
    ])
  })
})
