import fc from 'fast-check'
import type { JSONSchema } from '/work/main/src/tool/types.ts'
import { convertJsonSchemaToGeminiSchema } from '/work/main/src/adapters/convert-json-schema-to-gemini-schema.ts'
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
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('keywords'),
    fc.constant(true),
    fc.constant({}),
    scalar,
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

let t = Date.now()
const samples = fc.sample(rootSchema, 100)
console.log('sampled', Date.now() - t, JSON.stringify(samples).length)
for (const [i, s] of samples.entries()) {
  t = Date.now()
  const out = convertJsonSchemaToGeminiSchema(s)
  const ms = Date.now() - t
  if (ms > 50) console.log('slow', i, ms, JSON.stringify(s).length, JSON.stringify(out).length)
}
console.log('done')
