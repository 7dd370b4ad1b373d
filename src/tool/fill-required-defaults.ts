import { isRecord } from '../shared/is-record.js'
import { objectShape, resolveRef } from './schema-walk.js'
import type { JSONSchema } from './types.js'

// Deeper than any argument a model sends; past it values are left as they are.
const MAX_DEPTH = 64

/**
 * Fills in each property that is both `required` and given a `default` when the arguments leave it out,
 * following `properties`, `items`, `allOf` and `$ref`s into the same document. zod 4 writes such schemas
 * (a `.default()` field is required in its output), and the server behind them fills the default itself,
 * so a call without the property is one it accepts. Returns `value` itself when nothing changed, a new
 * value otherwise (never mutates; each default is a copy).
 *
 * @example
 * fillRequiredDefaults(
 *   { type: 'object', properties: { scale: { type: 'string', default: 'css' } }, required: ['scale'] },
 *   {},
 * ) // { scale: 'css' }
 */
export function fillRequiredDefaults(schema: JSONSchema, value: unknown): unknown {
  return fill(schema, value, schema, 0)
}

function fill(node: unknown, value: unknown, root: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value
  const schema = resolveRef(node, root)
  if (!isRecord(schema)) return value
  if (Array.isArray(value)) {
    const items = schema.items
    if (!isRecord(items)) return value
    const mapped = value.map((item) => fill(items, item, root, depth + 1))
    return mapped.some((item, index) => item !== value[index]) ? mapped : value
  }
  const { properties, required } = objectShape(schema, root)
  if (properties.size === 0) return value
  let changed = false
  const result: Record<string, unknown> = {}
  for (const [key, child] of Object.entries(value)) {
    const property = properties.get(key)
    const next = property === undefined ? child : fill(property, child, root, depth + 1)
    if (next !== child) changed = true
    Object.defineProperty(result, key, dataProperty(next))
  }
  for (const name of required) {
    if (Object.hasOwn(value, name)) continue
    const property = resolveRef(properties.get(name), root)
    if (!isRecord(property) || !Object.hasOwn(property, 'default')) continue
    changed = true
    Object.defineProperty(result, name, dataProperty(structuredClone(property.default)))
  }
  return changed ? result : value
}

function dataProperty(value: unknown): PropertyDescriptor {
  return { value, enumerable: true, writable: true, configurable: true }
}
