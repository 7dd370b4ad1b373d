import { isRecord } from '../shared/is-record.js'
import { objectShape, resolveRef as resolve } from './schema-walk.js'
import type { JSONSchema } from './types.js'

// Deeper than any argument a model sends; past it values are left as they are.
const MAX_DEPTH = 64

/**
 * Removes each `null` a model sent for an optional property whose schema does not allow `null`, following
 * `properties`, `items`, `allOf`, `anyOf`/`oneOf` and `$ref`s into the same document. OpenAI's strict mode
 * makes every property required and the optional ones nullable, so a model answering through it says
 * "absent" with `null`; this reads it as absent again. A `null` the schema allows, or one for a required
 * property, is kept. Returns `value` itself when nothing changed, a new value otherwise (never mutates).
 *
 * @example
 * dropOptionalNulls({ type: 'object', properties: { days: { type: 'integer' } } }, { days: null }) // {}
 */
export function dropOptionalNulls(schema: JSONSchema, value: unknown): unknown {
  return drop(schema, value, schema, 0)
}

function drop(node: unknown, value: unknown, root: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value
  const schema = resolve(node, root)
  if (!isRecord(schema)) return value
  if (Array.isArray(value)) {
    const items = schema.items
    if (!isRecord(items)) return value
    const mapped = value.map((item) => drop(items, item, root, depth + 1))
    return mapped.some((item, index) => item !== value[index]) ? mapped : value
  }
  const { properties, required } = objectShape(schema, root)
  if (properties.size === 0) return value
  let changed = false
  const result: Record<string, unknown> = {}
  for (const [key, child] of Object.entries(value)) {
    const property = properties.get(key)
    if (child === null && property !== undefined && !required.has(key) && !allowsNull(property, root, 0)) {
      changed = true
      continue
    }
    const next = property === undefined ? child : drop(property, child, root, depth + 1)
    if (next !== child) changed = true
    Object.defineProperty(result, key, { value: next, enumerable: true, writable: true, configurable: true })
  }
  return changed ? result : value
}

function allowsNull(node: unknown, root: unknown, depth: number): boolean {
  const schema = resolve(node, root)
  // `true`, `{}` and anything unreadable allow every value, null included.
  if (!isRecord(schema) || depth > 8) return true
  const types: unknown[] = Array.isArray(schema.type)
    ? schema.type
    : schema.type === undefined
      ? []
      : [schema.type]
  if (types.includes('null') || schema.nullable === true) return true
  if (Object.hasOwn(schema, 'const')) return schema.const === null
  if (Array.isArray(schema.enum)) return schema.enum.includes(null)
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key]
    if (Array.isArray(branches)) return branches.some((branch) => allowsNull(branch, root, depth + 1))
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.every((branch) => allowsNull(branch, root, depth + 1))
  return types.length === 0 && schema.properties === undefined && schema.items === undefined
}
