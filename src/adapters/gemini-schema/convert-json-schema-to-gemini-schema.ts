import type { JSONSchema } from '../../tool/types.js'
import type { GeminiSchema } from './gemini-schema.js'
import { lowerNode } from './lower-node.js'
import { BUDGET_FLOOR, BUDGET_PER_INPUT_NODE, type LowerState } from './lower-state.js'
import { renameProperties } from './rename-properties.js'
import { toObjectRoot } from './to-object-root.js'

/**
 * What lowering one schema produced: the lowered schema, and what it could not keep.
 *
 * @example
 * const { schema, simplified } = lowerJsonSchemaToGemini({ type: 'object', properties: { a: { type: 'string' } } })
 * simplified // 0
 */
export interface GeminiLowering {
  schema: GeminiSchema
  /** Nodes described instead of expanded because the work budget ran out (0 for every real schema). */
  simplified: number
  /** The JSON Schema keywords that Gemini's subset cannot say and that were dropped or moved into a description. */
  dropped: readonly string[]
  /** Property names Gemini refuses, as `original → sent` (the toolkit maps the sent names back). */
  renamed: readonly string[]
}

/**
 * Lowers a tool's JSON Schema into Gemini's `Schema` subset, keeping meaning where the subset can say it:
 * `$ref`/`$defs` inlined (a recursive reference is expanded once, then cut), `const` → a one-value `enum`,
 * a `null` type or branch → `nullable`, other type arrays and `oneOf` → `anyOf` alone on its node, `allOf`
 * merged, enum values as strings (a number or boolean enum becomes a string enum; the toolkit reads the string
 * the model sends back as the declared type), `required` only naming existing
 * properties, and every key outside the subset dropped. Every node carries a `type` (Gemini answers 400
 * "type: must be specified" otherwise) except a node that is only an `anyOf`: a node that allows any value
 * becomes the union of every kind Gemini can say. The root is always an object. Time and output size are
 * linear in the input: reused references are lowered once, and past a work budget a node is described
 * instead of expanded. Never throws and never mutates `schema`: the result shares no object with it.
 *
 * @example
 * convertJsonSchemaToGeminiSchema({
 *   type: 'object',
 *   properties: { unit: { const: 'c' }, note: { type: ['string', 'null'] } },
 *   additionalProperties: false,
 * })
 * // { type: 'object', properties: { unit: { type: 'string', enum: ['c'] }, note: { type: 'string', nullable: true } } }
 */
export function convertJsonSchemaToGeminiSchema(schema: JSONSchema): GeminiSchema {
  return lowerJsonSchemaToGemini(schema).schema
}

/**
 * {@link convertJsonSchemaToGeminiSchema}, also saying what the lowering could not keep: how many nodes the
 * work budget cut short and which keywords were dropped.
 *
 * @example
 * lowerJsonSchemaToGemini({ type: 'object', properties: { id: { type: 'string', format: 'uuid' } } }).dropped // ['format']
 */
export function lowerJsonSchemaToGemini(schema: JSONSchema): GeminiLowering {
  const state: LowerState = {
    root: schema,
    budget: BUDGET_FLOOR + BUDGET_PER_INPUT_NODE * countNodes(schema),
    simplified: 0,
    dropped: new Set(),
    onPath: new Set(),
    memo: new Map(),
    pointers: new Map(),
    dependsOn: Number.POSITIVE_INFINITY,
  }
  const lowered = toObjectRoot(lowerNode(schema, { refs: ['#'], depth: 0 }, state))
  const renamed = new Set<string>()
  renameProperties(lowered, renamed, 0)
  return {
    schema: lowered,
    simplified: state.simplified,
    dropped: [...state.dropped].sort(),
    renamed: [...renamed],
  }
}

/**
 * True when a lowered root declares no argument at all: Gemini then wants no `parameters` (it rejects an
 * object with empty `properties`).
 *
 * @example
 * hasNoProperties(convertJsonSchemaToGeminiSchema({ type: 'object', properties: {} })) // true
 */
export function hasNoProperties(schema: GeminiSchema): boolean {
  return schema.properties === undefined || Object.keys(schema.properties).length === 0
}

// Objects and arrays in the input, each counted once (shared subtrees and cycles too): the input's size.
function countNodes(schema: unknown): number {
  const seen = new Set<object>()
  const stack: unknown[] = [schema]
  while (stack.length > 0) {
    const value = stack.pop()
    if (typeof value !== 'object' || value === null || seen.has(value)) continue
    seen.add(value)
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push(child)
  }
  return seen.size
}
