import { resolveRef } from './schema-walk.js'
import type { JSONSchema } from './types.js'

const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

/**
 * Turns strings into the numbers, booleans, objects or arrays a schema asks for, where the text is exactly
 * such a value (`"60"` → `60`, `"true"` → `true`, an enum's `"2"` → `2`, `'{"a":1}'` → `{ a: 1 }` where a
 * string is not allowed), following `properties`, `items`, `anyOf`, `oneOf` and `$ref`s. Gemini declares
 * every enum as a string enum, so a model answering through it sends `"60"` for an integer enum, and OpenAI
 * strict mode gets free-form parts as JSON text; this restores the declared type. Returns `value` itself when nothing changed, a new value otherwise (never mutates).
 *
 * @example
 * coerceScalarStrings({ type: 'object', properties: { minutes: { type: 'integer' } } }, { minutes: '60' })
 * // { minutes: 60 }
 */
export function coerceScalarStrings(schema: unknown, value: unknown): unknown {
  return coerce(schema, value, schema, 0)
}

// Deeper than any argument a model sends; past it values are left as they are.
const MAX_DEPTH = 64

function coerce(schema: unknown, value: unknown, root: unknown, depth: number): unknown {
  const resolved = resolveRef(schema, root)
  if (typeof resolved !== 'object' || resolved === null || depth > MAX_DEPTH) return value
  const node = resolved as JSONSchema
  const types = Array.isArray(node.type) ? node.type : [node.type]
  if (typeof value === 'string') {
    const coerced = coerceText(node, types, value)
    if (coerced !== value) return coerced
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = node[key]
    if (!Array.isArray(branches)) continue
    for (const branch of branches) {
      const coerced = coerce(branch, value, root, depth + 1)
      if (coerced !== value) return coerced
    }
  }
  if (typeof value === 'string') return value
  if (Array.isArray(value)) {
    if (typeof node.items !== 'object' || node.items === null || Array.isArray(node.items)) return value
    const items = value.map((item) => coerce(node.items, item, root, depth + 1))
    return items.some((item, index) => item !== value[index]) ? items : value
  }
  if (typeof value === 'object' && value !== null && typeof node.properties === 'object' && node.properties) {
    const properties = node.properties as Record<string, unknown>
    let changed = false
    const entries = Object.entries(value).map(([key, child]) => {
      const coerced = Object.hasOwn(properties, key) ? coerce(properties[key], child, root, depth + 1) : child
      if (coerced !== child) changed = true
      return [key, coerced] as const
    })
    return changed ? Object.fromEntries(entries) : value
  }
  return value
}

function coerceText(node: JSONSchema, types: unknown[], text: string): unknown {
  const allowed = Array.isArray(node.enum)
    ? node.enum
    : Object.hasOwn(node, 'const')
      ? [node.const]
      : undefined
  if (allowed !== undefined && !allowed.includes(text)) {
    const match = allowed.find((option) => typeof option !== 'string' && JSON.stringify(option) === text)
    if (match !== undefined) return match
  }
  if (types.includes('string')) return text
  // OpenAI strict mode cannot say a free-form object or an array without items: they go as JSON text.
  const wantsObject = types.includes('object')
  const wantsArray = types.includes('array')
  if ((wantsObject && text.trimStart().startsWith('{')) || (wantsArray && text.trimStart().startsWith('['))) {
    const parsed = parseJson(text)
    if (typeof parsed === 'object' && parsed !== null && (Array.isArray(parsed) ? wantsArray : wantsObject))
      return parsed
  }
  if ((types.includes('integer') || types.includes('number')) && NUMBER_TEXT.test(text)) {
    const number = Number(text)
    if (types.includes('number') || Number.isInteger(number)) return number
  }
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true'
  return text
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
