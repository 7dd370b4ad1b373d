import { format } from '@cfworker/json-schema'
import { compileLinearTimePattern } from './linear-time-pattern.js'
import type { JSONSchema } from './types.js'

// The validator (`@cfworker/json-schema`) evaluates `pattern` and `patternProperties` with the platform's
// backtracking RegExp, where `^(a+)+$` against 'a'×30 + '!' runs for minutes. Before a schema reaches
// it, every `pattern` becomes a `format` whose name carries the pattern, and the validator's format table
// answers such names with the linear-time engine. `patternProperties` keys are matched against property
// names, which only the arguments know: per call, each key is replaced by a regular expression that
// matches exactly the argument names the linear-time engine matched (a trie of literals, linear to test).

/** The prefix of the `format` names that stand for a `pattern`. */
export const PATTERN_FORMAT_PREFIX = 'toolnexus-pattern:'

let formatsInstalled = false

// Names the validator's own table lacks fall through to its prototype; a proxy there answers ours. Nothing
// is stored per pattern beyond the engine's bounded cache, however many schemas come and go.
function installPatternFormats(): void {
  if (formatsInstalled) return
  formatsInstalled = true
  const table = format as Record<string, unknown>
  const fallback = Object.getPrototypeOf(table) as object
  Object.setPrototypeOf(
    table,
    new Proxy(fallback, {
      get(target, key, receiver) {
        if (typeof key !== 'string' || !key.startsWith(PATTERN_FORMAT_PREFIX)) {
          return Reflect.get(target, key, receiver)
        }
        const pattern = compileLinearTimePattern(key.slice(PATTERN_FORMAT_PREFIX.length))
        // A pattern the engine cannot evaluate is not enforced; the toolkit warned when the tool joined.
        return typeof pattern === 'string' ? acceptAll : (text: string) => pattern.test(text)
      },
    }),
  )
}

const acceptAll = (): boolean => true

/** A schema ready for the validator, and whether its `patternProperties` need the per-call step. */
export interface ValidationSchema {
  schema: JSONSchema
  hasPatternProperties: boolean
}

/**
 * The copy of `schema` the validator sees: each `pattern` replaced by its linear-time `format` (inside an
 * `allOf` when the node has a `format` of its own). Data keywords (`enum`, `const`, `default`, …) and
 * property names are left as they are. Shared sub-schemas stay shared.
 *
 * @example
 * toValidationSchema({ type: 'string', pattern: '^a+$' }).schema // { type: 'string', format: 'toolnexus-pattern:^a+$' }
 */
export function toValidationSchema(schema: JSONSchema): ValidationSchema {
  installPatternFormats()
  let hasPatternProperties = false
  const rewritten = mapSchemas(schema, (node) => {
    if (isObject(node.patternProperties)) hasPatternProperties = true
    if (typeof node.pattern !== 'string') return node
    const { pattern, ...rest } = node
    const token = { format: `${PATTERN_FORMAT_PREFIX}${pattern}` }
    if (rest.format === undefined) return { ...rest, ...token }
    return { ...rest, allOf: [...(Array.isArray(rest.allOf) ? rest.allOf : []), token] }
  }) as JSONSchema
  return { schema: rewritten, hasPatternProperties }
}

/**
 * The validation schema for one call: each `patternProperties` key replaced by an expression matching
 * exactly those of `names` (every property name in the arguments) that the linear-time engine matches.
 * Two keys never collide: each carries its position in a branch that cannot match.
 */
export function withLiteralPatternProperties(schema: JSONSchema, names: ReadonlySet<string>): JSONSchema {
  return mapSchemas(schema, (node) => {
    if (!isObject(node.patternProperties)) return node
    const literal: Record<string, unknown> = {}
    let index = 0
    for (const [source, subSchema] of Object.entries(node.patternProperties)) {
      const pattern = compileLinearTimePattern(source)
      const matched = typeof pattern === 'string' ? [] : [...names].filter((name) => pattern.test(name))
      Object.defineProperty(literal, `${literalExpression(matched)}|[]${index++}`, {
        value: subSchema,
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
    return { ...node, patternProperties: literal }
  }) as JSONSchema
}

/** Every property name of every object in `value`, at any depth. */
export function collectPropertyNames(value: unknown, names = new Set<string>()): Set<string> {
  const stack: unknown[] = [value]
  const seen = new Set<object>()
  while (stack.length > 0) {
    const current = stack.pop()
    if (typeof current !== 'object' || current === null || seen.has(current)) continue
    seen.add(current)
    if (Array.isArray(current)) {
      for (const item of current) stack.push(item)
      continue
    }
    for (const [key, child] of Object.entries(current)) {
      names.add(key)
      stack.push(child)
    }
  }
  return names
}

// An anchored trie of the names: testing it costs the length of the name, never a search over all names.
function literalExpression(names: readonly string[]): string {
  if (names.length === 0) return '[]'
  interface Trie {
    end: boolean
    next: Map<string, Trie>
  }
  const root: Trie = { end: false, next: new Map() }
  for (const name of names) {
    let node = root
    for (const char of name) {
      let child = node.next.get(char)
      if (child === undefined) {
        child = { end: false, next: new Map() }
        node.next.set(char, child)
      }
      node = child
    }
    node.end = true
  }
  const render = (node: Trie): string => {
    const branches = [...node.next].map(([char, child]) => escapeLiteral(char) + render(child))
    if (node.end) branches.push('')
    if (branches.length === 1) return branches[0] as string
    return `(?:${branches.join('|')})`
  }
  return `^${render(root)}$`
}

function escapeLiteral(char: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(char) ? `\\${char}` : char
}

// Keywords whose value is one schema, an array of schemas, or a map of names to schemas.
const SCHEMA_KEYWORDS = [
  'additionalItems',
  'additionalProperties',
  'contains',
  'else',
  'if',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
] as const
const SCHEMA_ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const
const SCHEMA_MAP_KEYWORDS = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
] as const

/**
 * Rebuilds a schema bottom-up through its schema-valued keywords, calling `visit` on each schema object
 * once its children are rebuilt. Shared sub-schemas are visited once and stay shared; a cycle is kept as
 * a cycle-free copy would be impossible, so a node already being rebuilt is returned as it is.
 */
function mapSchemas(root: unknown, visit: (node: JSONSchema) => JSONSchema): unknown {
  const done = new Map<object, unknown>()
  const walk = (node: unknown): unknown => {
    if (!isObject(node)) return node
    const known = done.get(node)
    if (known !== undefined) return known
    done.set(node, node)
    let copy: JSONSchema | undefined
    const set = (key: string, value: unknown): void => {
      if (value === node[key]) return
      copy ??= { ...node }
      copy[key] = value
    }
    for (const key of SCHEMA_KEYWORDS) if (key in node) set(key, walk(node[key]))
    for (const key of SCHEMA_ARRAY_KEYWORDS) {
      const list = node[key]
      if (!Array.isArray(list)) continue
      const mapped = list.map(walk)
      if (mapped.some((item, index) => item !== list[index])) set(key, mapped)
    }
    if (Array.isArray(node.items)) {
      const list = node.items
      const mapped = list.map(walk)
      if (mapped.some((item, index) => item !== list[index])) set('items', mapped)
    } else if ('items' in node) {
      set('items', walk(node.items))
    }
    for (const key of [...SCHEMA_MAP_KEYWORDS, 'dependencies'] as const) {
      const map = node[key]
      if (!isObject(map)) continue
      let mapCopy: Record<string, unknown> | undefined
      for (const [name, child] of Object.entries(map)) {
        // `dependencies` values may be arrays of names (draft 7), which are data.
        const mapped = Array.isArray(child) ? child : walk(child)
        if (mapped === child) continue
        mapCopy ??= copyMap(map)
        Object.defineProperty(mapCopy, name, {
          value: mapped,
          enumerable: true,
          writable: true,
          configurable: true,
        })
      }
      if (mapCopy !== undefined) set(key, mapCopy)
    }
    const result = visit(copy ?? node)
    done.set(node, result)
    return result
  }
  return walk(root)
}

// A copy that keeps a `__proto__` key as a plain property.
function copyMap(map: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(map)) {
    Object.defineProperty(copy, name, { value, enumerable: true, writable: true, configurable: true })
  }
  return copy
}

function isObject(value: unknown): value is JSONSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
