import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { convertJsonSchemaToGeminiSchema } from '../../src/adapters/gemini-schema/convert-json-schema-to-gemini-schema.js'
import { toGemini } from '../../src/adapters/to-gemini.js'
import { renamedProperties } from '../../src/tool/property-names.js'
import type { JSONSchema, Tool } from '../../src/tool/types.js'
import { geminiSubsetProblems, geminiToolsProblems } from '../support/gemini-subset.js'

// JSON Schemas as tools meet them: every keyword toGemini handles, in any combination, plus values of the
// wrong kind where a schema is expected, and references that resolve, dangle or loop.
const propertyName = fc.constantFrom('a', 'b', 'city', 'type', 'items', '__proto__', 'x-y', '$ref', '')
const typeName = fc.constantFrom('string', 'number', 'integer', 'boolean', 'array', 'object', 'null', 'weird')
const scalar = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -5, max: 5 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
)

const { schema } = fc.letrec<{ schema: unknown; keywords: Record<string, unknown> }>((tie) => ({
  // The leaves come first: past the depth limit fast-check picks the first arbitrary, which ends the tree.
  schema: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'schema', withCrossShrink: true },
    fc.oneof(fc.constant(true), fc.constant({}), scalar, fc.record({ type: typeName })),
    tie('keywords'),
  ),
  keywords: fc.record(
    {
      type: fc.oneof(typeName, fc.uniqueArray(typeName, { maxLength: 3 })),
      description: fc.string({ maxLength: 6 }),
      title: fc.string({ maxLength: 4 }),
      format: fc.constantFrom('uri', 'email', 'date-time', 'int32', 'float', 'enum', 'uuid'),
      enum: fc.array(fc.oneof(scalar, fc.constant([1]), fc.constant({ k: 1 })), { maxLength: 4 }),
      const: scalar,
      default: fc.jsonValue({ maxDepth: 1 }),
      examples: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }),
      properties: fc.dictionary(propertyName, tie('schema'), { maxKeys: 3 }),
      required: fc.array(fc.oneof(propertyName, fc.integer()), { maxLength: 3 }),
      additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
      propertyNames: tie('schema'),
      items: fc.oneof(tie('schema'), fc.array(tie('schema'), { maxLength: 2 })),
      prefixItems: fc.array(tie('schema'), { maxLength: 2 }),
      anyOf: fc.array(tie('schema'), { maxLength: 3 }),
      oneOf: fc.array(tie('schema'), { maxLength: 3 }),
      allOf: fc.array(tie('schema'), { maxLength: 2 }),
      $ref: fc.constantFrom(
        '#',
        '#/$defs/a',
        '#/$defs/b',
        '#/definitions/c',
        '#/$defs/missing',
        'https://x/y.json',
        '#/properties/a',
        'nonsense',
      ),
      nullable: fc.boolean(),
      minimum: fc.oneof(fc.integer({ min: -10, max: 10 }), fc.double({ noNaN: true })),
      maximum: fc.integer({ min: -10, max: 10 }),
      exclusiveMinimum: fc.oneof(fc.boolean(), fc.double({ noNaN: true, min: -10, max: 10 })),
      exclusiveMaximum: fc.oneof(fc.boolean(), fc.integer({ min: -10, max: 10 })),
      minLength: fc.oneof(fc.nat(5), fc.constant(-1), fc.constant(1.5)),
      maxItems: fc.nat(5),
      pattern: fc.constantFrom('^a$', '[0-9]+'),
      multipleOf: fc.constantFrom(1, 0.5),
      uniqueItems: fc.boolean(),
      $schema: fc.constant('http://json-schema.org/draft-07/schema#'),
    },
    { requiredKeys: [] },
  ),
}))

const rootSchema: fc.Arbitrary<JSONSchema> = fc
  .record(
    {
      type: fc.constant('object'),
      properties: fc.dictionary(propertyName, schema, { maxKeys: 4 }),
      required: fc.array(propertyName, { maxLength: 3 }),
      $defs: fc.record({ a: schema, b: schema }, { requiredKeys: [] }),
      definitions: fc.record({ c: schema }, { requiredKeys: [] }),
      additionalProperties: fc.boolean(),
      oneOf: fc.array(schema, { maxLength: 2 }),
      allOf: fc.array(schema, { maxLength: 2 }),
    },
    { requiredKeys: ['type'] },
  )
  .map((root) => root as JSONSchema)

function toolOf(inputSchema: JSONSchema): Tool {
  return {
    name: 't',
    description: 'd',
    inputSchema,
    source: 'custom',
    execute: async () => ({ output: '', isError: false }),
  }
}

const runs = { numRuns: 400 }
// Hundreds of generated schemas each: pure CPU work, which a loaded machine can stretch many times over.
const PROPERTY_TIMEOUT_MS = 240_000

describe('toGemini over generated JSON Schemas', () => {
  it(
    'stays inside the subset, never throws, and leaves the input as it was',
    () => {
      fc.assert(
        fc.property(rootSchema, (input) => {
          // As JSON text: generated objects may have a null prototype, which a structured clone would not keep.
          const before = JSON.stringify(input)
          const tools = toGemini([toolOf(input)])
          expect(geminiToolsProblems(tools)).toStrictEqual([])
          expect(JSON.stringify(input)).toBe(before)
        }),
        runs,
      )
    },
    PROPERTY_TIMEOUT_MS,
  )

  it(
    'never throws on anything at all, and its output is plain JSON sharing nothing with the input',
    () => {
      fc.assert(
        fc.property(fc.oneof(rootSchema, fc.object(), fc.jsonValue()), (input) => {
          const lowered = convertJsonSchemaToGeminiSchema(input as JSONSchema)
          expect(lowered.type).toBe('object')
          expect(lowered).toStrictEqual(JSON.parse(JSON.stringify(lowered)))
          expect(
            geminiSubsetProblems(lowered).filter((problem) => !problem.includes('must not be empty')),
          ).toStrictEqual([])
        }),
        runs,
      )
    },
    PROPERTY_TIMEOUT_MS,
  )

  it(
    'keeps every argument of a plain object root (a name Gemini refuses as its sent name), and its required ones',
    () => {
      fc.assert(
        fc.property(rootSchema, (generated) => {
          const { oneOf: _oneOf, allOf: _allOf, ...input } = generated
          const names = Object.keys((input.properties as Record<string, unknown>) ?? {})
          const sent = renamedProperties(names)
          const lowered = convertJsonSchemaToGeminiSchema(input)
          expect(Object.keys(lowered.properties ?? {}).sort()).toStrictEqual(
            names.map((name) => sent.get(name) ?? name).sort(),
          )
          const required = ((input.required as string[] | undefined) ?? []).filter((name) =>
            names.includes(name),
          )
          expect(lowered.required ?? []).toStrictEqual(
            [...new Set(required)].map((name) => sent.get(name) ?? name),
          )
        }),
        runs,
      )
    },
    PROPERTY_TIMEOUT_MS,
  )

  it(
    'is idempotent: lowering a lowered schema changes nothing',
    () => {
      fc.assert(
        fc.property(rootSchema, (input) => {
          const once = convertJsonSchemaToGeminiSchema(input)
          expect(convertJsonSchemaToGeminiSchema(once as JSONSchema)).toStrictEqual(once)
        }),
        runs,
      )
    },
    PROPERTY_TIMEOUT_MS,
  )
})
