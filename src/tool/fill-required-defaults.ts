import { isRecord } from '../shared/is-record.js'
import { rewriteArguments } from './rewrite-arguments.js'
import { resolveRef } from './schema-walk.js'
import type { JSONSchema } from './types.js'

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
  return rewriteArguments(schema, value, {
    *adds({ value: object, properties, required }) {
      for (const name of required) {
        if (Object.hasOwn(object, name)) continue
        const property = resolveRef(properties.get(name), schema)
        if (!isRecord(property) || !Object.hasOwn(property, 'default')) continue
        yield [name, structuredClone(property.default)]
      }
    },
  })
}
