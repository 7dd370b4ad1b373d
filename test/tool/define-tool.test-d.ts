// Type tests of defineTool's inferred arguments: checked by `npm run typecheck` (tsc), never run. A line
// marked @ts-expect-error fails the typecheck if it ever compiles, so a misspelt argument name must not.
import { jsonSchema } from 'ai'
import { expectTypeOf } from 'vitest'
import { z } from 'zod'
import { defineTool, type FromJsonSchema, type InferToolArgs, type JSONSchema } from '../../src/index.js'

// zod: the schema's input type.
defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: z.object({ city: z.string(), days: z.number().int().optional() }),
  execute: (args) => {
    expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number | undefined }>()
    return args.city
  },
})

defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: z.object({ city: z.string() }),
  // @ts-expect-error `town` is not an argument of this schema
  execute: ({ town }) => `sunny in ${town}`,
})

// A zod shape (the MCP SDK way): the object it describes, optional where the schema takes undefined.
defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: { city: z.string(), days: z.number().optional() },
  execute: (args) => {
    expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number | undefined }>()
    return args.city
  },
})

defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: { city: z.string() },
  // @ts-expect-error `town` is not an argument of this shape
  execute: ({ town }) => `sunny in ${town}`,
})

// Any Standard Schema: its declared input type.
const standard = {
  '~standard': {
    version: 1,
    vendor: 'example',
    validate: (value: unknown) => ({ value: value as { city: string } }),
    types: undefined as unknown as { input: { city: string }; output: { city: string } },
  },
} as const
defineTool({
  name: 'standard',
  description: '',
  inputSchema: standard,
  execute: (args) => expectTypeOf(args).toEqualTypeOf<{ city: string }>(),
})

// The AI SDK's jsonSchema<T>(): T.
defineTool({
  name: 'ai_sdk',
  description: '',
  inputSchema: jsonSchema<{ city: string; units?: 'C' | 'F' }>({
    type: 'object',
    properties: { city: { type: 'string' }, units: { enum: ['C', 'F'] } },
    required: ['city'],
  }),
  execute: (args) => expectTypeOf(args).toEqualTypeOf<{ city: string; units?: 'C' | 'F' }>(),
})

// A JSON Schema literal, inline: read as written (no `as const` needed inside the call).
defineTool({
  name: 'inline',
  description: '',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: (args) => expectTypeOf(args).toEqualTypeOf<{ city: string }>(),
})

defineTool({
  name: 'inline',
  description: '',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  // @ts-expect-error `town` is not an argument of this schema
  execute: ({ town }) => `sunny in ${town}`,
})

// A JSON Schema declared elsewhere `as const`, with every keyword the type reads.
const rich = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    days: { type: 'integer' },
    metric: { type: 'boolean' },
    units: { enum: ['C', 'F'] },
    version: { const: 2 },
    note: { type: ['string', 'null'] },
    limit: { anyOf: [{ type: 'number' }, { type: 'string' }] },
    tags: { type: 'array', items: { type: 'string' } },
    origin: {
      type: 'object',
      properties: { lat: { type: 'number' }, lon: { type: 'number' } },
      required: ['lat', 'lon'],
    },
    anything: {},
  },
  required: ['city', 'units'],
} as const
expectTypeOf<FromJsonSchema<typeof rich>>().toEqualTypeOf<{
  city: string
  units: 'C' | 'F'
  days?: number
  metric?: boolean
  version?: 2
  note?: string | null
  limit?: number | string
  tags?: string[]
  origin?: { lat: number; lon: number }
  anything?: unknown
}>()
defineTool({
  name: 'rich',
  description: '',
  inputSchema: rich,
  execute: ({ city, units, tags }) => `${city.toUpperCase()} ${units} ${tags?.join(',') ?? ''}`,
})

// No schema: no arguments.
defineTool({
  name: 'ping',
  description: '',
  execute: (args) => expectTypeOf(args).toEqualTypeOf<Record<string, never>>(),
})

// A schema TypeScript cannot read (typed only as JSONSchema, or not as const): any object.
declare const wide: JSONSchema
expectTypeOf<InferToolArgs<typeof wide>>().toEqualTypeOf<Record<string, unknown>>()
const mutable: JSONSchema = { type: 'object', properties: { city: { type: 'string' } } }
defineTool({
  name: 'wide',
  description: '',
  inputSchema: mutable,
  execute: (args) => expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>(),
})

// A JSON Schema typed by an interface without an index signature (@types/json-schema's JSONSchema7).
declare const draft7: import('json-schema').JSONSchema7
defineTool({
  name: 'draft7',
  description: '',
  inputSchema: draft7,
  execute: (args) => expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>(),
})
