import type { GeminiSchema, GeminiSchemaType } from './gemini-schema.js'
import type { LowerState } from './lower-state.js'

// The kinds an "any value" node offers. Gemini wants a `type` on every node, and a value that may be anything
// is, in its subset, the union of every kind it can say; an array holds any scalar or object.
const ANY_SCALAR_KINDS: readonly GeminiSchemaType[] = ['string', 'number', 'boolean', 'object']

/**
 * A node that allows any value, typed as Gemini demands: `anyOf` string, number, boolean, object and an array
 * of those. A description goes on every branch, since an `anyOf` node carries nothing else.
 */
export function anyValue(
  description: string | undefined,
  nullable: boolean,
  state?: LowerState,
): GeminiSchema {
  // Ten output nodes, paid for like any others.
  if (state !== undefined) state.budget -= 10
  const label = (type: GeminiSchemaType): GeminiSchema => {
    const branch: GeminiSchema = { type }
    if (description !== undefined && description !== '') branch.description = description
    if (nullable) branch.nullable = true
    return branch
  }
  const items: GeminiSchema = { anyOf: ANY_SCALAR_KINDS.map((type) => ({ type })) }
  return { anyOf: [...ANY_SCALAR_KINDS.map(label), { ...label('array'), items }] }
}

export function typedNode(
  type: GeminiSchemaType | undefined,
  description: string,
  nullable: boolean,
  state: LowerState,
): GeminiSchema {
  if (type === undefined) return anyValue(description, nullable, state)
  const node: GeminiSchema = { type }
  if (description !== '') node.description = description
  if (nullable) node.nullable = true
  if (type === 'array') node.items = anyValue(undefined, false, state)
  return node
}

export function withNullable(schema: GeminiSchema): GeminiSchema {
  if (schema.anyOf !== undefined) return { anyOf: schema.anyOf.map(withNullable) }
  return { ...schema, nullable: true }
}

// `anyOf` stands alone on its node (the API rejects it beside `type` or anything else); nested unions are
// flattened, since (A ∨ B) ∨ C is A ∨ B ∨ C.
export function anyOfNode(branches: GeminiSchema[]): GeminiSchema {
  const flat = branches.flatMap((branch) => branch.anyOf ?? [branch])
  return flat.length === 1 ? (flat[0] ?? anyValue(undefined, false)) : { anyOf: flat }
}

// The schemas, each once (compared by their JSON text, computed once per schema).
export function distinctSchemas(schemas: readonly GeminiSchema[]): GeminiSchema[] {
  if (schemas.length < 2) return [...schemas]
  const seen = new Set<string>()
  return schemas.filter((schema) => {
    const text = JSON.stringify(schema)
    if (seen.has(text)) return false
    seen.add(text)
    return true
  })
}
