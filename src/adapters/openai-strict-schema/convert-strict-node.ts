import { isRecord } from '../../shared/is-record.js'
import { describe, noteText, sentenceCase } from './describe-node.js'
import { freeFormKind, jsonText } from './free-form.js'
import { nullable, typeList } from './nullable.js'
import {
  MAX_NESTING,
  REWRITTEN_KEYS,
  STRICT_FORMATS,
  STRICT_KEYS,
  STRICT_TYPES,
  type StrictState,
} from './strict-state.js'

export function convertNode(
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

// Many MCP servers omit `type`; the keywords present still say it.
function inferType(node: Record<string, unknown>): string | undefined {
  if (isRecord(node.properties) || Array.isArray(node.required)) return 'object'
  if (node.items !== undefined || Array.isArray(node.prefixItems)) return 'array'
  if (typeof node.pattern === 'string' || typeof node.format === 'string') return 'string'
  if (node.minLength !== undefined || node.maxLength !== undefined) return 'string'
  if (node.minimum !== undefined || node.maximum !== undefined) return 'number'
  return undefined
}

export function dataProperty(value: unknown): PropertyDescriptor {
  return { value, enumerable: true, writable: true, configurable: true }
}
