import { isRecord } from '../shared/is-record.js'
import type { JSONSchema } from '../tool/types.js'

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

// The keywords strict mode accepts; every other one is moved into the node's description.
const STRICT_KEYS = new Set([
  'type',
  'description',
  'title',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'pattern',
  'format',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
])
// The string formats strict mode knows; another format is said in the description instead.
const STRICT_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
])
const STRICT_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'])
// Keywords read here and rewritten into what strict mode says instead.
const REWRITTEN_KEYS = new Set(['oneOf', 'allOf', 'prefixItems', 'nullable', '$schema', '$id', '$comment'])

/** OpenAI's documented limits for a strict schema. */
const MAX_NESTING = 10
const MAX_PROPERTIES = 5000
const MAX_ENUM_VALUES = 1000

interface StrictState {
  reasons: string[]
  lost: Set<string>
  onPath: Set<object>
  /** Every `$ref` the converted schema holds: only the definitions they reach are sent. */
  refs: Set<string>
  properties: number
  enumValues: number
}

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

function convertNode(
  input: unknown,
  path: string,
  depth: number,
  state: StrictState,
): Record<string, unknown> {
  if (!isRecord(input)) {
    state.reasons.push(`${path} allows any value; strict mode needs a type`)
    return {}
  }
  if (depth > MAX_NESTING) {
    state.reasons.push(`${path} is nested deeper than ${MAX_NESTING} levels`)
    return {}
  }
  if (state.onPath.has(input)) {
    state.reasons.push(`${path} contains itself`)
    return {}
  }
  state.onPath.add(input)
  try {
    return convertFresh(mergeAllOf(input, path, state), path, depth, state)
  } finally {
    state.onPath.delete(input)
  }
}

// A lone `allOf` branch, or branches that are plain inline objects, merge into their node; other shapes
// strict mode cannot say.
function mergeAllOf(
  node: Record<string, unknown>,
  path: string,
  state: StrictState,
): Record<string, unknown> {
  if (!Array.isArray(node.allOf)) return node
  const { allOf, ...rest } = node
  let merged: Record<string, unknown> = rest
  for (const branch of allOf) {
    if (!isRecord(branch) || (allOf.length > 1 && typeof branch.$ref === 'string')) {
      state.reasons.push(`${path} uses allOf with a reference; strict mode has no allOf`)
      return rest
    }
    const properties = { ...(isRecord(merged.properties) ? merged.properties : {}) }
    if (isRecord(branch.properties)) Object.assign(properties, branch.properties)
    const required = [
      ...(Array.isArray(merged.required) ? merged.required : []),
      ...(Array.isArray(branch.required) ? branch.required : []),
    ]
    merged = { ...branch, ...merged }
    if (Object.keys(properties).length > 0) merged.properties = properties
    if (required.length > 0) merged.required = [...new Set(required)]
  }
  return merged
}

function convertFresh(
  node: Record<string, unknown>,
  path: string,
  depth: number,
  state: StrictState,
): Record<string, unknown> {
  const notes: string[] = []
  const result: Record<string, unknown> = {}
  for (const key of Object.keys(node)) {
    if (!STRICT_KEYS.has(key) && !REWRITTEN_KEYS.has(key)) {
      state.lost.add(key)
      const text = noteText(node[key])
      if (text !== undefined) notes.push(`${sentenceCase(key)}: ${text}.`)
    }
  }
  if (typeof node.title === 'string') result.title = node.title

  if (typeof node.$ref === 'string') {
    if (!node.$ref.startsWith('#')) state.reasons.push(`${path} refers outside the document (${node.$ref})`)
    state.refs.add(node.$ref)
    result.$ref = node.$ref
    if (typeof node.description === 'string') result.description = node.description
    return result
  }

  const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined
  if (Array.isArray(node.oneOf)) state.lost.add('oneOf')
  if (union !== undefined) {
    result.anyOf = union.map((branch, index) => convertNode(branch, `${path}.anyOf[${index}]`, depth, state))
    describe(result, node, notes)
    return result
  }

  let types = typeList(node)
  if (types.length === 0) {
    const inferred = inferType(node)
    if (inferred !== undefined) types = [inferred]
  }
  const unknownTypes = types.filter((type) => !STRICT_TYPES.has(type))
  if (unknownTypes.length > 0) state.reasons.push(`${path} has an unknown type ${unknownTypes.join(', ')}`)
  if (node.nullable === true && !types.includes('null') && types.length > 0) types = [...types, 'null']
  const hasValues = Object.hasOwn(node, 'const') || Array.isArray(node.enum)
  if (types.length === 0 && !hasValues) {
    state.reasons.push(`${path} allows any value; strict mode needs a type`)
    return result
  }
  if (types.length > 0) result.type = types.length === 1 ? types[0] : types
  if (Object.hasOwn(node, 'const')) result.const = node.const
  if (Array.isArray(node.enum)) {
    state.enumValues += node.enum.length
    result.enum = [...node.enum]
  }

  if (typeof node.format === 'string') {
    if (STRICT_FORMATS.has(node.format)) result.format = node.format
    else {
      state.lost.add('format')
      notes.push(`Format: ${node.format}.`)
    }
  }
  for (const key of [
    'pattern',
    'multipleOf',
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'minItems',
    'maxItems',
  ]) {
    if (node[key] !== undefined) result[key] = node[key]
  }

  const freeForm = freeFormKind(node, types, depth)
  // The arguments themselves must be an object strict mode can name; a part inside them can be text.
  if (freeForm !== undefined && depth === 0) {
    state.reasons.push(`${path} is a free-form object; strict mode needs every property named`)
    return result
  }
  if (freeForm !== undefined) return jsonText(node, types, freeForm, path, notes, state)
  if (types.includes('object')) convertObject(node, result, path, depth, state)
  if (types.includes('array')) convertItems(node, result, path, depth, state)
  describe(result, node, notes)
  return result
}

// What strict mode cannot say, since it names every property and every item's schema: an object that names
// no property (a map, or anything), or an array without `items`. Only the root of a tool without arguments
// may name none.
function freeFormKind(
  node: Record<string, unknown>,
  types: readonly string[],
  depth: number,
): 'object' | 'array' | undefined {
  if (types.includes('object')) {
    const named = isRecord(node.properties) && Object.keys(node.properties).length > 0
    const extra = node.additionalProperties
    if (!named && extra !== false && (depth > 0 || extra !== undefined)) return 'object'
  }
  if (types.includes('array') && node.items === undefined && !Array.isArray(node.prefixItems)) return 'array'
  return undefined
}

// A free-form part goes as a string holding its JSON text; the toolkit reads the text back into the value
// before it checks the arguments (a string where the schema wants an object or an array).
function jsonText(
  node: Record<string, unknown>,
  types: readonly string[],
  kind: 'object' | 'array',
  path: string,
  notes: string[],
  state: StrictState,
): Record<string, unknown> {
  state.lost.add(`${path} as JSON text`)
  const result: Record<string, unknown> = {
    type: types.includes('null') ? ['string', 'null'] : 'string',
  }
  if (typeof node.title === 'string') result.title = node.title
  const example = kind === 'object' ? '{"name": "value"}' : '["a", "b"]'
  describe(result, node, [...notes, `Write the ${kind} as JSON text, like ${example}.`])
  return result
}

function convertObject(
  node: Record<string, unknown>,
  result: Record<string, unknown>,
  path: string,
  depth: number,
  state: StrictState,
): void {
  const source = isRecord(node.properties) ? node.properties : {}
  const names = Object.keys(source)
  const extra = node.additionalProperties
  if (names.length > 0 && extra !== undefined && extra !== false) state.lost.add('additionalProperties')
  state.properties += names.length
  const required = new Set(
    (Array.isArray(node.required) ? node.required : []).filter((name) => typeof name === 'string'),
  )
  const properties: Record<string, unknown> = {}
  for (const name of names) {
    const converted = convertNode(source[name], `${path}.${name}`, depth + 1, state)
    // Strict mode wants every property required: an optional one says "absent" with null instead.
    const property = required.has(name) ? converted : nullable(converted)
    Object.defineProperty(properties, name, dataProperty(property))
  }
  result.properties = properties
  result.required = names
  result.additionalProperties = false
}

function convertItems(
  node: Record<string, unknown>,
  result: Record<string, unknown>,
  path: string,
  depth: number,
  state: StrictState,
): void {
  const tuple = Array.isArray(node.prefixItems)
    ? node.prefixItems
    : Array.isArray(node.items)
      ? node.items
      : []
  if (tuple.length > 0) {
    state.lost.add('prefixItems')
    const branches = tuple.map((position, index) =>
      convertNode(position, `${path}[${index}]`, depth + 1, state),
    )
    result.items = branches.length === 1 ? branches[0] : { anyOf: branches }
    return
  }
  result.items = convertNode(node.items, `${path}[]`, depth + 1, state)
}

/**
 * The schema that also allows `null`: the form strict mode gives an optional property.
 *
 * @example
 * nullable({ type: 'string' }) // { type: ['string', 'null'] }
 */
function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(schema.anyOf)) {
    const hasNull = schema.anyOf.some((branch) => isRecord(branch) && branch.type === 'null')
    return hasNull ? schema : { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] }
  }
  if (typeof schema.$ref === 'string') {
    const { description, ...reference } = schema
    return {
      anyOf: [reference, { type: 'null' }],
      ...(description === undefined ? {} : { description }),
    }
  }
  const copy = { ...schema }
  const types = typeList(schema)
  if (types.length > 0 && !types.includes('null')) copy.type = [...types, 'null']
  if (Array.isArray(copy.enum) && !copy.enum.includes(null)) copy.enum = [...copy.enum, null]
  if (Object.hasOwn(copy, 'const')) {
    copy.enum = [copy.const, null]
    delete copy.const
  }
  return copy
}

function describe(result: Record<string, unknown>, node: Record<string, unknown>, notes: string[]): void {
  const own = typeof node.description === 'string' && node.description !== '' ? node.description : undefined
  const parts = [own, ...notes].filter((part): part is string => part !== undefined)
  if (parts.length === 0) return
  result.description = parts
    .map((part, index) =>
      index < parts.length - 1 && !/[.!?:]$/.test(part.trim()) ? `${part.trim()}.` : part,
    )
    .join(' ')
}

function typeList(node: Record<string, unknown>): string[] {
  const raw: unknown[] = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type]
  return [...new Set(raw.filter((type): type is string => typeof type === 'string'))]
}

// Many MCP servers omit `type`; the keywords present still say it.
function inferType(node: Record<string, unknown>): string | undefined {
  if (isRecord(node.properties) || Array.isArray(node.required)) return 'object'
  if (node.items !== undefined || Array.isArray(node.prefixItems)) return 'array'
  if (typeof node.pattern === 'string' || typeof node.format === 'string') return 'string'
  if (node.minLength !== undefined || node.maxLength !== undefined) return 'string'
  if (node.minimum !== undefined || node.maximum !== undefined) return 'number'
  return undefined
}

// A dropped keyword's value as a short note for the model; structures are left out (they read as noise).
function noteText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.length <= 200 ? value : undefined
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (value === null) return 'null'
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) {
    const text = JSON.stringify(value)
    return text.length <= 200 ? text : undefined
  }
  return undefined
}

function sentenceCase(key: string): string {
  const words = key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

function dataProperty(value: unknown): PropertyDescriptor {
  return { value, enumerable: true, writable: true, configurable: true }
}
