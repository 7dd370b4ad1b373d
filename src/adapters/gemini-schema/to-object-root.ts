import { anyOfNode, anyValue, distinctSchemas } from './any-value.js'
import { type GeminiSchema, orderKeys } from './gemini-schema.js'

// Tool arguments are always an object, and Gemini insists on it: a union root (a discriminated union of
// objects) becomes one object holding every branch's properties, requiring only what all branches require.
export function toObjectRoot(schema: GeminiSchema): GeminiSchema {
  if (schema.anyOf === undefined) {
    const { title, description, properties, required, propertyOrdering, minProperties, maxProperties } =
      schema
    return orderKeys({
      type: 'object',
      title,
      description,
      properties,
      required,
      propertyOrdering,
      minProperties,
      maxProperties,
    })
  }
  const branches = schema.anyOf.filter(
    (branch) => branch.type === 'object' || branch.properties !== undefined,
  )
  const variants = new Map<string, GeminiSchema[]>()
  for (const branch of branches) {
    for (const [name, property] of Object.entries(branch.properties ?? {})) {
      variants.set(name, [...(variants.get(name) ?? []), property])
    }
  }
  const properties: Record<string, GeminiSchema> = Object.fromEntries(
    [...variants].map(([name, schemas]) => [name, combineVariants(schemas)]),
  )
  const required = Object.keys(properties).filter((name) =>
    branches.every((branch) => branch.required?.includes(name) === true),
  )
  const description = branches.find((branch) => branch.description !== undefined)?.description
  return {
    type: 'object',
    ...(description === undefined ? {} : { description }),
    ...(Object.keys(properties).length > 0 ? { properties } : {}),
    ...(required.length > 0 ? { required } : {}),
  }
}

// A property several branches declare: one schema when they agree, a joined string enum for a discriminator
// (`kind: 'a'` | `kind: 'b'`), else the union of what they say.
function combineVariants(schemas: GeminiSchema[]): GeminiSchema {
  const distinct = distinctSchemas(schemas)
  const first = distinct[0] ?? anyValue(undefined, false)
  if (distinct.length === 1) return first
  if (distinct.every((schema) => schema.type === 'string' && schema.enum !== undefined)) {
    return { ...first, enum: [...new Set(distinct.flatMap((schema) => schema.enum ?? []))] }
  }
  return anyOfNode(distinct)
}
