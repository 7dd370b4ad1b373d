// Generators of hostile tool schemas and arguments, shared by the property tests of validation,
// `tk.execute` and the schema transformations (toGemini, toOpenAI). Every schema is plain JSON data (what
// an MCP server can publish) unless the generator says otherwise, and each comes with its size in
// characters, so a test can bound the time it allows by the size of its input.
import fc from 'fast-check'

export type Schema = Record<string, unknown>

/** Patterns that take a backtracking engine exponential or polynomial time on the matching `evilText`. */
export const CATASTROPHIC_PATTERNS = [
  '^(a+)+$',
  '^(a|a)*$',
  '^(a|aa)+$',
  '^(\\w+\\s?)*$',
  '(x+x+)+y',
  '^(a*)*b$',
  '^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$',
] as const

/** A text that sends a backtracking engine down every path of the patterns above. */
export function evilText(length = 30): string {
  return `${'a'.repeat(length)}!`
}

/** `$defs` where each level refers to the next one `fanOut` times: exponential when expanded naively. */
export function fanOutRefSchema(levels: number, fanOut = 2): Schema {
  const defs: Record<string, unknown> = { [`n${levels}`]: { type: 'string' } }
  for (let level = levels - 1; level >= 0; level--) {
    const properties: Record<string, unknown> = {}
    for (let branch = 0; branch < fanOut; branch++)
      properties[`p${branch}`] = { $ref: `#/$defs/n${level + 1}` }
    defs[`n${level}`] = { type: 'object', properties }
  }
  return { type: 'object', properties: { root: { $ref: '#/$defs/n0' } }, $defs: defs }
}

/** An `anyOf` beside `properties`, nested `levels` deep, with no `$ref`: exponential when flattened. */
export function nestedUnionSchema(levels: number): Schema {
  let node: Schema = { type: 'string' }
  for (let level = 0; level < levels; level++) {
    node = {
      type: 'object',
      properties: { left: node, right: { type: 'integer' } },
      anyOf: [{ required: ['left'] }, { required: ['right'] }],
    }
  }
  return { type: 'object', properties: { root: node } }
}

/** `properties` nested `levels` deep. */
export function deepSchema(levels: number): Schema {
  let node: Schema = { type: 'string' }
  for (let level = 0; level < levels; level++) node = { type: 'object', properties: { a: node } }
  return { type: 'object', properties: { root: node } }
}

/** A `$ref` cycle (legal JSON Schema, a recursive shape): no JavaScript cycle, but no end when inlined. */
export function refCycleSchema(): Schema {
  return {
    type: 'object',
    properties: { node: { $ref: '#/$defs/node' } },
    $defs: {
      node: { type: 'object', properties: { next: { $ref: '#/$defs/node' }, value: { type: 'string' } } },
    },
  }
}

/** A JavaScript value that contains itself: not JSON, only a host tool can hand one over. */
export function cyclicObjectSchema(): Schema {
  const schema: Schema = { type: 'object', properties: {} }
  ;(schema.properties as Schema).self = schema
  return schema
}

/** A schema using each catastrophic pattern as `pattern` and as a `patternProperties` key. */
export function patternSchema(pattern: string): Schema {
  return {
    type: 'object',
    properties: { text: { type: 'string', pattern } },
    patternProperties: { [pattern]: { type: 'string' } },
  }
}

/** An enum of `count` values. */
export function hugeEnumSchema(count: number): Schema {
  return {
    type: 'object',
    properties: { choice: { enum: Array.from({ length: count }, (_, index) => `value-${index}`) } },
    required: ['choice'],
  }
}

/** The size of a schema in characters of JSON, `Infinity` for one JSON cannot hold (a cycle). */
export function sizeOf(schema: unknown): number {
  try {
    return JSON.stringify(schema)?.length ?? 0
  } catch {
    return Number.POSITIVE_INFINITY
  }
}

/** Any of the hostile shapes above, at generated sizes (kept small enough to run many per test). */
export const hostileSchema: fc.Arbitrary<Schema> = fc.oneof(
  fc.integer({ min: 1, max: 24 }).map((levels) => fanOutRefSchema(levels)),
  fc
    .record({ levels: fc.integer({ min: 1, max: 8 }), fanOut: fc.integer({ min: 2, max: 6 }) })
    .map(({ levels, fanOut }) => fanOutRefSchema(levels, fanOut)),
  fc.integer({ min: 1, max: 20 }).map(nestedUnionSchema),
  fc.integer({ min: 1, max: 400 }).map(deepSchema),
  fc.constant(refCycleSchema()),
  fc.constantFrom(...CATASTROPHIC_PATTERNS).map(patternSchema),
  fc.integer({ min: 1, max: 20_000 }).map(hugeEnumSchema),
  // Arbitrary JSON at the leaves: whatever a careless or hostile server writes.
  fc.jsonValue({ maxDepth: 4 }).map((value) => ({ type: 'object', properties: { x: value } }) as Schema),
)

/** Arguments a model might send against such schemas: evil texts, deep values, wrong types, odd keys. */
export const hostileArgs: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.integer({ min: 1, max: 40 }).map((length) => ({ text: evilText(length), [evilText(length)]: 'x' })),
  fc.integer({ min: 1, max: 200 }).map((depth) => {
    let value: unknown = 'leaf'
    for (let level = 0; level < depth; level++) value = { a: value, left: 'x' }
    return { root: value }
  }),
  fc.record({ choice: fc.oneof(fc.string(), fc.integer(), fc.constant(null)) }),
  fc.dictionary(fc.string({ maxLength: 50 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 20 }),
)
