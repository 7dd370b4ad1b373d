import { isRecord } from '../shared/is-record.js'
import { objectShape, resolveRef } from './schema-walk.js'
import type { JSONSchema } from './types.js'

// Deeper than any argument a model sends; past it values are left as they are.
const MAX_DEPTH = 64

/** What one rewrite does at each object the schema describes. */
export interface ArgumentRewrite {
  /** True when this property the arguments hold is to be left out of the object. */
  omits?: (entry: {
    key: string
    child: unknown
    property: unknown
    required: ReadonlySet<string>
  }) => boolean
  /** The properties to add to the object (each `[name, value]`), after the ones it holds. */
  adds?: (object: {
    value: Record<string, unknown>
    properties: ReadonlyMap<string, unknown>
    required: ReadonlySet<string>
  }) => Iterable<readonly [string, unknown]>
}

/**
 * Walks the arguments along their schema (`properties`, `items`, `allOf`, `anyOf`/`oneOf` and `$ref`s into
 * the same document) and applies a rewrite at every object. Returns `value` itself when nothing changed, a
 * new value otherwise (never mutates).
 *
 * @example
 * rewriteArguments({ type: 'object', properties: { a: { type: 'string' } } }, { a: null }, {
 *   omits: ({ child }) => child === null,
 * }) // {}
 */
export function rewriteArguments(schema: JSONSchema, value: unknown, rewrite: ArgumentRewrite): unknown {
  return walk(schema, value, { root: schema, rewrite }, 0)
}

function walk(
  node: unknown,
  value: unknown,
  walker: { root: unknown; rewrite: ArgumentRewrite },
  depth: number,
): unknown {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value
  const schema = resolveRef(node, walker.root)
  if (!isRecord(schema)) return value
  if (Array.isArray(value)) {
    const items = schema.items
    if (!isRecord(items)) return value
    const mapped = value.map((item) => walk(items, item, walker, depth + 1))
    return mapped.some((item, index) => item !== value[index]) ? mapped : value
  }
  const { properties, required } = objectShape(schema, walker.root)
  if (properties.size === 0) return value
  const { omits, adds } = walker.rewrite
  let changed = false
  const result: Record<string, unknown> = {}
  for (const [key, child] of Object.entries(value)) {
    const property = properties.get(key)
    if (omits?.({ key, child, property, required }) === true) {
      changed = true
      continue
    }
    const next = property === undefined ? child : walk(property, child, walker, depth + 1)
    if (next !== child) changed = true
    Object.defineProperty(result, key, dataProperty(next))
  }
  for (const [name, added] of adds?.({ value: value as Record<string, unknown>, properties, required }) ??
    []) {
    changed = true
    Object.defineProperty(result, name, dataProperty(added))
  }
  return changed ? result : value
}

function dataProperty(value: unknown): PropertyDescriptor {
  return { value, enumerable: true, writable: true, configurable: true }
}
