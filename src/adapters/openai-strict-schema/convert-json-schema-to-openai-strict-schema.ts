import { isRecord } from '../../shared/is-record.js'
import type { JSONSchema } from '../../tool/types.js'
import { convertNode, dataProperty } from './convert-strict-node.js'
import { MAX_ENUM_VALUES, MAX_PROPERTIES, type StrictState } from './strict-state.js'

/**
 * What converting a schema for OpenAI's strict mode gave: a strict schema (and what it could not keep), or
 * the reasons strict mode cannot take this tool at all.
 *
 * @example
 * const conversion: OpenAIStrictConversion = convertJsonSchemaToOpenAIStrictSchema(schema)
 * if (conversion.kind === 'refused') console.log(conversion.reasons)
 */
export type OpenAIStrictConversion =
  | {
      kind: 'strict'
      schema: JSONSchema
      /** Keywords strict mode does not take, moved into descriptions or dropped. */
      lost: readonly string[]
    }
  | { kind: 'refused'; reasons: readonly string[] }

/**
 * Rewrites a tool's JSON Schema into the form OpenAI's strict mode (Structured Outputs) accepts: every
 * object lists all its properties in `required` and sets `additionalProperties: false`; a property that was
 * optional becomes nullable instead (the toolkit reads the model's `null` for it as "absent" again before it
 * validates the arguments); `oneOf` becomes `anyOf`, a single `allOf` is merged, tuples become one `items`;
 * keywords strict mode does not take (`minLength`, `default`, `uniqueItems`, other formats, …) move into the
 * description. `$ref`/`$defs` are kept as they are (strict mode resolves them, recursion included), and
 * only the definitions a reference reaches are sent, so the work is one visit per node: linear in the input.
 * A free-form part — an object that names no property, an array without `items` — goes as a string holding
 * its JSON text (the toolkit reads the text back into the value before it validates). A schema strict mode
 * cannot say — a value of any type, a union at the root, deeper than 10 levels, more than 5,000 properties,
 * a reference outside the document — is refused with the reasons. Never throws, never mutates.
 *
 * @example
 * convertJsonSchemaToOpenAIStrictSchema({
 *   type: 'object',
 *   properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
 *   required: ['city'],
 * })
 * // { kind: 'strict', lost: [], schema: { type: 'object', properties: { city: { type: 'string' },
 * //   days: { type: ['integer', 'null'], minimum: 1 } }, required: ['city', 'days'], additionalProperties: false } }
 */
export function convertJsonSchemaToOpenAIStrictSchema(schema: JSONSchema): OpenAIStrictConversion {
  const state: StrictState = {
    reasons: [],
    lost: new Set(),
    onPath: new Set(),
    refs: new Set(),
    properties: 0,
    enumValues: 0,
  }
  let converted: Record<string, unknown> | undefined
  try {
    converted = convertRoot(schema, state)
  } catch (error) {
    // Input no reading survives (a getter that throws): refused, never thrown.
    state.reasons.push(
      `the schema cannot be read (${error instanceof Error ? error.message : String(error)})`,
    )
  }
  if (state.properties > MAX_PROPERTIES) {
    state.reasons.push(`it has ${state.properties} properties; strict mode takes at most ${MAX_PROPERTIES}`)
  }
  if (state.enumValues > MAX_ENUM_VALUES) {
    state.reasons.push(`it has ${state.enumValues} enum values; strict mode takes at most ${MAX_ENUM_VALUES}`)
  }
  if (state.reasons.length > 0 || converted === undefined) {
    return { kind: 'refused', reasons: [...new Set(state.reasons)] }
  }
  return { kind: 'strict', schema: converted, lost: [...state.lost].sort() }
}

function convertRoot(schema: JSONSchema, state: StrictState): Record<string, unknown> | undefined {
  if (!isRecord(schema)) {
    state.reasons.push('the root is not an object schema')
    return undefined
  }
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    state.reasons.push('the root is a union (anyOf/oneOf); strict mode wants an object root')
    return undefined
  }
  const root = convertNode({ ...schema, type: 'object' }, 'the arguments', 0, state)
  // Only the definitions a reference reaches (from the properties, or from a definition they reach) are
  // converted and sent: one that nothing uses can neither cost strict mode nor be asked for.
  const converted = { $defs: new Map<string, unknown>(), definitions: new Map<string, unknown>() }
  const visited = new Set<string>()
  let pending = [...state.refs]
  while (pending.length > 0) {
    for (const reference of pending) {
      visited.add(reference)
      const target = definitionOf(reference)
      if (target === undefined || converted[target.key].has(target.name)) continue
      const definitions = schema[target.key]
      if (!isRecord(definitions) || !Object.hasOwn(definitions, target.name)) continue
      const definition = definitions[target.name]
      converted[target.key].set(
        target.name,
        convertNode(definition, `${target.key}.${target.name}`, 1, state),
      )
    }
    pending = [...state.refs].filter((reference) => !visited.has(reference))
  }
  for (const key of ['$defs', 'definitions'] as const) {
    if (converted[key].size === 0) continue
    const definitions: Record<string, unknown> = {}
    // In the order the schema lists them, so the same schema gives the same text.
    const order = Object.keys(isRecord(schema[key]) ? schema[key] : {})
    for (const name of order) {
      if (converted[key].has(name))
        Object.defineProperty(definitions, name, dataProperty(converted[key].get(name)))
    }
    root[key] = definitions
  }
  return root
}

// `#/$defs/Name` (or deeper into it, `#/$defs/Name/properties/x`): the definition it lands in.
function definitionOf(reference: string): { key: '$defs' | 'definitions'; name: string } | undefined {
  const [key, raw] = reference.replace(/^#\//, '').split('/')
  if ((key !== '$defs' && key !== 'definitions') || raw === undefined) return undefined
  return { key, name: raw.replaceAll('~1', '/').replaceAll('~0', '~') }
}
