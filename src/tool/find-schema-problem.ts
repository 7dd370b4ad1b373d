import { compileLinearTimePattern } from './linear-time-pattern.js'

/** How deep a schema's objects and arrays may nest (a 1,000-level schema is refused, not validated). */
const MAX_SCHEMA_DEPTH = 256

/** What is wrong with a tool's input schema, found before any call. */
export type SchemaProblem =
  | { kind: 'cyclic'; message: string }
  | { kind: 'too-deep'; message: string }
  | { kind: 'pattern'; message: string }

/**
 * Looks a schema over once, without recursion, for what no validator can live with: an object that
 * contains itself (a cyclic JavaScript value), nesting deeper than {@link MAX_SCHEMA_DEPTH}, or a
 * `pattern` / `patternProperties` key the linear-time engine cannot evaluate. Returns the first problem
 * with a message naming where it is, or `undefined`.
 *
 * @example
 * const schema: Record<string, unknown> = { type: 'object', properties: {} }
 * ;(schema.properties as Record<string, unknown>).self = schema
 * findSchemaProblem(schema)?.message // 'is cyclic: properties.self refers back to an enclosing object …'
 */
export function findSchemaProblem(schema: unknown): SchemaProblem | undefined {
  // Depth-first with an explicit stack; `onPath` holds the objects between the root and the current one.
  interface Frame {
    value: object
    path: string[]
    entries: [string, unknown][]
    index: number
  }
  const onPath = new Set<object>()
  const stack: Frame[] = []
  const enter = (value: object, path: string[]): SchemaProblem | undefined => {
    if (onPath.has(value)) {
      return {
        kind: 'cyclic',
        message: `is cyclic: ${where(path)} refers back to an enclosing object; JSON Schema is a tree (use "$ref" with "$defs" for recursive shapes)`,
      }
    }
    if (stack.length >= MAX_SCHEMA_DEPTH) {
      return {
        kind: 'too-deep',
        message: `nests deeper than ${MAX_SCHEMA_DEPTH} levels (at ${where(path)}); flatten it or use "$ref" with "$defs"`,
      }
    }
    onPath.add(value)
    stack.push({ value, path, entries: Object.entries(value), index: 0 })
    return undefined
  }
  if (typeof schema !== 'object' || schema === null) return undefined
  const first = enter(schema, [])
  if (first !== undefined) return first
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame
    const entry = frame.entries[frame.index++]
    if (entry === undefined) {
      onPath.delete(frame.value)
      stack.pop()
      continue
    }
    const [key, child] = entry
    const parentKey = frame.path[frame.path.length - 1]
    const patternProblem = checkPattern(key, child, parentKey, frame.path)
    if (patternProblem !== undefined) return patternProblem
    if (typeof child === 'object' && child !== null) {
      const problem = enter(child, [...frame.path, key])
      if (problem !== undefined) return problem
    }
  }
  return undefined
}

function checkPattern(
  key: string,
  child: unknown,
  parentKey: string | undefined,
  path: readonly string[],
): SchemaProblem | undefined {
  let source: string | undefined
  // `pattern` as a keyword (not a property named "pattern", nor inside enum/const data).
  if (key === 'pattern' && typeof child === 'string' && !isNameMap(parentKey)) source = child
  if (parentKey === 'patternProperties') source = key
  if (source === undefined) return undefined
  const compiled = compileLinearTimePattern(source)
  if (typeof compiled !== 'string') return undefined
  const shown =
    source.length > 80 ? `${JSON.stringify(source.slice(0, 80)).slice(0, -1)}…"` : JSON.stringify(source)
  return {
    kind: 'pattern',
    message: `has the pattern ${shown} at ${where([...path, key])}, which ${compiled}`,
  }
}

function isNameMap(key: string | undefined): boolean {
  return (
    key === 'properties' ||
    key === 'patternProperties' ||
    key === '$defs' ||
    key === 'definitions' ||
    key === 'dependentSchemas' ||
    key === 'enum' ||
    key === 'const' ||
    key === 'default' ||
    key === 'examples'
  )
}

function where(path: readonly string[]): string {
  if (path.length === 0) return 'the root'
  const text = path.join('.')
  return text.length > 120 ? `…${text.slice(-120)}` : text
}
