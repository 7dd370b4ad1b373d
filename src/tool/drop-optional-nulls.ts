import { isRecord } from '../shared/is-record.js'
import { rewriteArguments } from './rewrite-arguments.js'
import { resolveRef as resolve } from './schema-walk.js'
import type { JSONSchema } from './types.js'

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
  return rewriteArguments(schema, value, {
    omits: ({ key, child, property, required }) =>
      child === null && property !== undefined && !required.has(key) && !allowsNull(property, schema, 0),
  })
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
