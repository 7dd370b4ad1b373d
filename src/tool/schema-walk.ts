import { isRecord } from '../shared/is-record.js'

/**
 * Follows a `$ref` chain into the same document (a few hops); anything else, or a reference that points
 * nowhere, is returned as it is.
 *
 * @example
 * resolveRef({ $ref: '#/$defs/city' }, { $defs: { city: { type: 'string' } } }) // { type: 'string' }
 */
export function resolveRef(node: unknown, root: unknown): unknown {
  let current = node
  for (let hops = 0; hops < 8 && isRecord(current) && typeof current.$ref === 'string'; hops++) {
    const target = pointer(root, current.$ref)
    if (target === undefined) return current
    current = target
  }
  return current
}

function pointer(root: unknown, reference: string): unknown {
  if (!reference.startsWith('#')) return undefined
  let current = root
  for (const raw of reference.slice(1).split('/').slice(1)) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~')
    if (!isRecord(current) || !Object.hasOwn(current, segment)) return undefined
    current = current[segment]
  }
  return current
}

/**
 * The properties and required names an object node says, its `allOf` branches included; a union's
 * branches add their properties but not their required names (a name one branch requires is not required
 * by the union as a whole).
 *
 * @example
 * objectShape({ properties: { city: { type: 'string' } }, required: ['city'] }, root)
 * // { properties: Map { 'city' => { type: 'string' } }, required: Set { 'city' } }
 */
export function objectShape(
  schema: Record<string, unknown>,
  root: unknown,
): { properties: Map<string, unknown>; required: Set<string> } {
  const properties = new Map<string, unknown>()
  const required = new Set<string>()
  const visit = (node: unknown, includeRequired: boolean, depth: number): void => {
    const resolved = resolveRef(node, root)
    if (!isRecord(resolved) || depth > 8) return
    if (isRecord(resolved.properties)) {
      for (const [name, property] of Object.entries(resolved.properties)) {
        if (!properties.has(name)) properties.set(name, property)
      }
    }
    if (includeRequired && Array.isArray(resolved.required)) {
      for (const name of resolved.required) if (typeof name === 'string') required.add(name)
    }
    for (const branch of Array.isArray(resolved.allOf) ? resolved.allOf : [])
      visit(branch, includeRequired, depth + 1)
    for (const key of ['anyOf', 'oneOf'] as const) {
      for (const branch of Array.isArray(resolved[key]) ? resolved[key] : []) visit(branch, false, depth + 1)
    }
  }
  visit(schema, true, 0)
  return { properties, required }
}
