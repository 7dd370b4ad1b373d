import { isRecord } from '../shared/is-record.js'
import { resolveRef as resolve } from './schema-walk.js'
import type { JSONSchema } from './types.js'

/**
 * The property names every provider takes: Gemini and Anthropic refuse others (`-`, `.`, `[`, spaces, more
 * than 64 characters) with an HTTP 400 for the whole request.
 *
 * @example
 * PROPERTY_NAME_PATTERN.test('file_path') // true
 * PROPERTY_NAME_PATTERN.test('filter[id]') // false
 */
export const PROPERTY_NAME_PATTERN = /^[a-zA-Z0-9_]{1,64}$/

/**
 * The names among `names` that providers refuse, each with the name it is sent as instead: other characters
 * become `_`, a name longer than 64 is cut, and a name that would collide with another gets a number. Same
 * input, same answer, so the way back is computed the same way.
 *
 * @example
 * renamedProperties(['a.b', 'c']) // Map { 'a.b' => 'a_b' }
 */
export function renamedProperties(names: readonly string[]): Map<string, string> {
  const renamed = new Map<string, string>()
  if (names.every((name) => PROPERTY_NAME_PATTERN.test(name))) return renamed
  const taken = new Set(names.filter((name) => PROPERTY_NAME_PATTERN.test(name)))
  for (const name of names) {
    if (PROPERTY_NAME_PATTERN.test(name)) continue
    const base = (name.replace(/[^a-zA-Z0-9_]/g, '_') || '_').slice(0, 64)
    let candidate = base
    for (let index = 2; taken.has(candidate); index++) {
      const suffix = `_${index}`
      candidate = `${base.slice(0, 64 - suffix.length)}${suffix}`
    }
    taken.add(candidate)
    renamed.set(name, candidate)
  }
  return renamed
}

// Per schema: whether any of its objects has a property providers refuse.
const hasRenames = new WeakMap<object, boolean>()

/**
 * Gives back their original names to the arguments a model sent under renamed property names (see
 * {@link renamedProperties}), following `properties`, `items`, `allOf`/`anyOf`/`oneOf` and `$ref`s. A name
 * is only restored when the original is not also present. Returns `args` itself when nothing changed, and
 * costs one lookup for a schema without such names.
 *
 * @example
 * restoreRenamedKeys({ type: 'object', properties: { 'a.b': { type: 'string' } } }, { a_b: 'x' }) // { 'a.b': 'x' }
 */
export function restoreRenamedKeys(schema: JSONSchema, args: unknown): unknown {
  const key: unknown = schema
  if (typeof key !== 'object' || key === null) return args
  let renames = hasRenames.get(key)
  if (renames === undefined) {
    renames = schemaHasRenames(key)
    hasRenames.set(key, renames)
  }
  return renames ? restore(schema, args, schema, 0) : args
}

function schemaHasRenames(schema: object): boolean {
  const seen = new Set<object>()
  const stack: unknown[] = [schema]
  while (stack.length > 0) {
    const node = stack.pop()
    if (typeof node !== 'object' || node === null || seen.has(node)) continue
    seen.add(node)
    if (!Array.isArray(node) && isRecord((node as Record<string, unknown>).properties)) {
      const properties = (node as Record<string, unknown>).properties as Record<string, unknown>
      if (Object.keys(properties).some((name) => !PROPERTY_NAME_PATTERN.test(name))) return true
    }
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push(child)
  }
  return false
}

function restore(node: unknown, value: unknown, root: unknown, depth: number): unknown {
  if (depth > 64 || typeof value !== 'object' || value === null) return value
  const schema = resolve(node, root)
  if (!isRecord(schema)) return value
  if (Array.isArray(value)) {
    if (!isRecord(schema.items)) return value
    const items = value.map((item) => restore(schema.items, item, root, depth + 1))
    return items.some((item, index) => item !== value[index]) ? items : value
  }
  const properties = collectProperties(schema, root)
  if (properties.size === 0) return value
  const reverse = reverseMap(properties)
  let changed = false
  const result: Record<string, unknown> = {}
  for (const [sent, child] of Object.entries(value)) {
    const original = properties.has(sent) ? sent : reverse.get(sent)
    const name = original !== undefined && !Object.hasOwn(value, original) ? original : sent
    const property = properties.get(name)
    const next = property === undefined ? child : restore(property, child, root, depth + 1)
    if (name !== sent || next !== child) changed = true
    Object.defineProperty(result, name, { value: next, enumerable: true, writable: true, configurable: true })
  }
  return changed ? result : value
}

function reverseMap(properties: Map<string, unknown>): Map<string, string> {
  const reverse = new Map<string, string>()
  for (const [original, sent] of renamedProperties([...properties.keys()])) reverse.set(sent, original)
  return reverse
}

// The properties a node declares, those of its `allOf`/`anyOf`/`oneOf` branches included.
function collectProperties(schema: Record<string, unknown>, root: unknown): Map<string, unknown> {
  const properties = new Map<string, unknown>()
  const visit = (node: unknown, depth: number): void => {
    const resolved = resolve(node, root)
    if (!isRecord(resolved) || depth > 8) return
    if (isRecord(resolved.properties)) {
      for (const [name, property] of Object.entries(resolved.properties)) {
        if (!properties.has(name)) properties.set(name, property)
      }
    }
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      const branches = resolved[key]
      if (Array.isArray(branches)) for (const branch of branches) visit(branch, depth + 1)
    }
  }
  visit(schema, 0)
  return properties
}
