import { isRecord } from '../shared/is-record.js'
import type { JSONSchema } from '../tool/types.js'

/**
 * The value types Gemini's `Schema` knows, spelled as JSON Schema spells them (the API accepts any case;
 * `@google/genai` upper-cases them itself).
 *
 * @example
 * const type: GeminiSchemaType = 'integer'
 */
export type GeminiSchemaType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object'

/**
 * Gemini's `Schema`: the OpenAPI 3.0 subset a `functionDeclarations[].parameters` may use. The API rejects a
 * whole request for one key outside it, which is why `toGemini` lowers every JSON Schema into this shape.
 *
 * @example
 * const schema: GeminiSchema = { type: 'object', properties: { unit: { type: 'string', enum: ['c', 'f'] } } }
 */
export interface GeminiSchema {
  type?: GeminiSchemaType
  /** `float`/`double` on numbers, `int32`/`int64` on integers, `enum`/`date-time` on strings. */
  format?: string
  title?: string
  description?: string
  nullable?: boolean
  /** Always strings, and only on `type: 'string'`. */
  enum?: string[]
  items?: GeminiSchema
  properties?: { [name: string]: GeminiSchema }
  required?: string[]
  propertyOrdering?: string[]
  /** Alone on its node: never beside `type` or any other key. */
  anyOf?: GeminiSchema[]
  default?: unknown
  example?: unknown
  minimum?: number
  maximum?: number
  minItems?: number
  maxItems?: number
  minLength?: number
  maxLength?: number
  minProperties?: number
  maxProperties?: number
  pattern?: string
}

// The keys a `GeminiSchema` may carry, in the order the output lists them; everything else is dropped.
const GEMINI_SCHEMA_KEYS: readonly (keyof GeminiSchema)[] = [
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'properties',
  'required',
  'propertyOrdering',
  'anyOf',
  'default',
  'example',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
  'pattern',
]

// The formats the API accepts per type; any other format is rejected with HTTP 400, so it moves into the
// description instead.
const allowedFormats: Record<GeminiSchemaType, readonly string[]> = {
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
  boolean: [],
  array: [],
  object: [],
}

const schemaTypes: readonly GeminiSchemaType[] = ['string', 'number', 'integer', 'boolean', 'array', 'object']

// Deeper than any real tool schema; a guard against generated or self-referencing inputs.
const MAX_DEPTH = 48

interface LowerContext {
  /** The document `$ref`s point into. */
  root: unknown
  /** `$ref`s being expanded on the current path: a second visit is a cycle. */
  refs: readonly string[]
  /** Objects on the current path, so a JS-level cycle in the input ends too. */
  seen: ReadonlySet<object>
  depth: number
}

/**
 * Lowers a tool's JSON Schema into Gemini's `Schema` subset, keeping meaning where the subset can say it:
 * `$ref`/`$defs` inlined (a recursive reference is expanded once, then cut), `const` → a one-value `enum`,
 * a `null` type or branch → `nullable`, other type arrays and `oneOf` → `anyOf` alone on its node, `allOf`
 * merged, enum values as strings (a number or boolean enum becomes a string enum; the toolkit reads the string
 * the model sends back as the declared type), `required` only naming existing
 * properties, and every key outside the subset dropped. The root is always an object. Never throws and
 * never mutates `schema`: the result shares no object with it.
 *
 * @example
 * convertJsonSchemaToGeminiSchema({
 *   type: 'object',
 *   properties: { unit: { const: 'c' }, note: { type: ['string', 'null'] } },
 *   additionalProperties: false,
 * })
 * // { type: 'object', properties: { unit: { type: 'string', enum: ['c'] }, note: { type: 'string', nullable: true } } }
 */
export function convertJsonSchemaToGeminiSchema(schema: JSONSchema): GeminiSchema {
  const context: LowerContext = { root: schema, refs: ['#'], seen: new Set(), depth: 0 }
  const lowered = lowerNode(schema, context)
  return toObjectRoot(lowered)
}

/**
 * True when a lowered root declares no argument at all: Gemini then wants no `parameters` (it rejects an
 * object with empty `properties`).
 *
 * @example
 * hasNoProperties(convertJsonSchemaToGeminiSchema({ type: 'object', properties: {} })) // true
 */
export function hasNoProperties(schema: GeminiSchema): boolean {
  return schema.properties === undefined || Object.keys(schema.properties).length === 0
}

// Tool arguments are always an object, and Gemini insists on it: a union root (a discriminated union of
// objects) becomes one object holding every branch's properties, requiring only what all branches require.
function toObjectRoot(schema: GeminiSchema): GeminiSchema {
  if (schema.anyOf === undefined) {
    const { title, description, properties, required, propertyOrdering, minProperties, maxProperties } =
      schema
    return orderKeys({
      type: 'object',
      title,
      description,
      properties,
      required,
      propertyOrdering,
      minProperties,
      maxProperties,
    })
  }
  const branches = schema.anyOf.filter(
    (branch) => branch.type === 'object' || branch.properties !== undefined,
  )
  const variants = new Map<string, GeminiSchema[]>()
  for (const branch of branches) {
    for (const [name, property] of Object.entries(branch.properties ?? {})) {
      variants.set(name, [...(variants.get(name) ?? []), property])
    }
  }
  const properties: Record<string, GeminiSchema> = Object.fromEntries(
    [...variants].map(([name, schemas]) => [name, combineVariants(schemas)]),
  )
  const required = Object.keys(properties).filter((name) =>
    branches.every((branch) => branch.required?.includes(name) === true),
  )
  const description = branches.find((branch) => branch.description !== undefined)?.description
  return {
    type: 'object',
    ...(description === undefined ? {} : { description }),
    ...(Object.keys(properties).length > 0 ? { properties } : {}),
    ...(required.length > 0 ? { required } : {}),
  }
}

// A property several branches declare: one schema when they agree, a joined string enum for a discriminator
// (`kind: 'a'` | `kind: 'b'`), else the union of what they say.
function combineVariants(schemas: GeminiSchema[]): GeminiSchema {
  const distinct = schemas.filter(
    (schema, index) =>
      schemas.findIndex((other) => JSON.stringify(other) === JSON.stringify(schema)) === index,
  )
  const first = distinct[0] ?? {}
  if (distinct.length === 1) return first
  if (distinct.every((schema) => schema.type === 'string' && schema.enum !== undefined)) {
    return { ...first, enum: [...new Set(distinct.flatMap((schema) => schema.enum ?? []))] }
  }
  return anyOfNode(distinct)
}

function lowerNode(input: unknown, context: LowerContext): GeminiSchema {
  if (!isRecord(input) || context.depth > MAX_DEPTH || context.seen.has(input)) return {}
  const inner: LowerContext = { ...context, seen: new Set(context.seen).add(input), depth: context.depth + 1 }

  const resolved = resolveReference(input, inner)
  if (resolved.kind === 'cycle') return cycleStub(resolved.target, resolved.node, resolved.reference)
  const merged = mergeAllOf(resolved.node, resolved.context)
  return lowerResolved(merged.node, merged.context)
}

type Resolution =
  | { kind: 'resolved'; node: Record<string, unknown>; context: LowerContext }
  | { kind: 'cycle'; node: Record<string, unknown>; target: unknown; reference: string }

// Inlines `$ref` (JSON pointers into the root document), keeping keys written beside it. A reference already
// being expanded on this path is a cycle: it is cut instead of expanded forever.
function resolveReference(node: Record<string, unknown>, context: LowerContext): Resolution {
  let current = node
  let refs = context.refs
  // A chain of references ($ref to a node that is itself a $ref) resolves step by step.
  for (let hops = 0; typeof current.$ref === 'string' && hops < MAX_DEPTH; hops++) {
    const reference = current.$ref
    const { $ref: _ref, ...siblings } = current
    const target = resolvePointer(context.root, reference)
    if (refs.includes(reference)) return { kind: 'cycle', node: siblings, target, reference }
    refs = [...refs, reference]
    current = isRecord(target) ? { ...target, ...siblings } : siblings
  }
  return { kind: 'resolved', node: current, context: { ...context, refs } }
}

function resolvePointer(root: unknown, reference: string): unknown {
  if (!reference.startsWith('#')) return undefined
  const path = reference.slice(1)
  if (path === '') return root
  if (!path.startsWith('/')) return undefined
  let current: unknown = root
  for (const raw of path.slice(1).split('/')) {
    const segment = decodePointerSegment(raw)
    if (Array.isArray(current)) {
      current = /^\d+$/.test(segment) ? current[Number(segment)] : undefined
    } else if (isRecord(current) && Object.hasOwn(current, segment)) {
      current = current[segment]
    } else {
      return undefined
    }
  }
  return current
}

function decodePointerSegment(raw: string): string {
  let segment = raw
  try {
    segment = decodeURIComponent(raw)
  } catch {
    // A malformed escape is taken literally.
  }
  return segment.replaceAll('~1', '/').replaceAll('~0', '~')
}

// A recursive reference, met the second time on a path, stops here: the model still learns the value's
// type and that it nests, without an endless schema.
function cycleStub(target: unknown, siblings: Record<string, unknown>, reference: string): GeminiSchema {
  const type = isRecord(target)
    ? (declaredTypes(target).find((each) => each !== 'null') ?? inferType(target))
    : undefined
  const name = reference === '#' ? 'the arguments' : decodePointerSegment(reference.split('/').at(-1) ?? '')
  const own =
    stringOrUndefined(siblings.description) ??
    (isRecord(target) ? stringOrUndefined(target.description) : undefined)
  const description = joinSentences([own, `Recursive: same shape as ${name} (not expanded further).`])
  if (type === undefined) return { description }
  // Gemini requires `items` on every array, even a cut one.
  return type === 'array' ? { type, description, items: {} } : { type, description }
}

interface Merged {
  node: Record<string, unknown>
  /** Carries the references expanded while merging, so a recursion through `allOf` is still cut. */
  context: LowerContext
}

// `allOf` branches are merged into their node: properties joined, `required` united, other keys kept from
// whichever says them first (the node itself before its branches).
function mergeAllOf(node: Record<string, unknown>, context: LowerContext): Merged {
  if (!Array.isArray(node.allOf)) return { node, context }
  const { allOf, ...rest } = node
  let merged: Record<string, unknown> = rest
  let current = context
  for (const branch of allOf) {
    if (!isRecord(branch)) continue
    const resolved = resolveReference(branch, current)
    if (resolved.kind === 'cycle') continue
    const inner = mergeAllOf(resolved.node, resolved.context)
    merged = mergeSchemas(merged, inner.node)
    current = inner.context
  }
  return { node: merged, context: current }
}

function mergeSchemas(
  first: Record<string, unknown>,
  second: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...first }
  for (const [key, value] of Object.entries(second)) {
    if (key === 'properties' && isRecord(value) && isRecord(merged.properties)) {
      const properties: Record<string, unknown> = { ...merged.properties }
      for (const [name, property] of Object.entries(value)) {
        const existing = Object.hasOwn(properties, name) ? properties[name] : undefined
        const combined = isRecord(existing) && isRecord(property) ? { allOf: [existing, property] } : property
        Object.defineProperty(properties, name, ownValue(combined))
      }
      merged.properties = properties
    } else if (key === 'required' && Array.isArray(value) && Array.isArray(merged.required)) {
      merged.required = [...new Set([...merged.required, ...value])]
    } else if (!Object.hasOwn(merged, key)) {
      Object.defineProperty(merged, key, ownValue(value))
    }
  }
  return merged
}

function lowerResolved(node: Record<string, unknown>, context: LowerContext): GeminiSchema {
  const branches = unionBranches(node)
  if (branches !== undefined) return lowerUnion(node, branches, context)

  const types = declaredTypes(node)
  const nullable =
    types.includes('null') || node.nullable === true || enumValues(node)?.includes(null) === true
  const nonNull = types.filter((type): type is GeminiSchemaType => type !== 'null')
  if (nonNull.length > 1) {
    const split = nonNull.map((type) => ({ ...node, type, nullable }))
    return anyOfNode(split.map((branch) => lowerResolved(branch, context)))
  }
  return lowerSingle(node, nonNull[0] ?? inferType(node), nullable, context)
}

// `anyOf`/`oneOf` (a node with both keeps `anyOf`); `{ type: 'null' }` branches become `nullable` on the rest.
function unionBranches(node: Record<string, unknown>): unknown[] | undefined {
  const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined
  return union !== undefined && union.length > 0 ? union : undefined
}

function lowerUnion(node: Record<string, unknown>, branches: unknown[], context: LowerContext): GeminiSchema {
  const { anyOf: _anyOf, oneOf: _oneOf, ...siblings } = node
  let nullable = siblings.nullable === true || declaredTypes(siblings).includes('null')
  const kept: Record<string, unknown>[] = []
  for (const branch of branches) {
    if (!isRecord(branch)) continue
    const resolved = resolveReference(branch, context)
    const target = resolved.kind === 'cycle' ? undefined : mergeAllOf(resolved.node, resolved.context).node
    if (target !== undefined && isNullOnly(target)) {
      nullable = true
      continue
    }
    kept.push(branch)
  }
  // The keys beside the union hold for every branch: distributing them keeps the meaning exactly.
  const shared: Record<string, unknown> = { ...siblings }
  if (Array.isArray(shared.type)) shared.type = shared.type.filter((type) => type !== 'null')
  if (Array.isArray(shared.type) && shared.type.length === 0) delete shared.type
  const lowered = kept.map((branch) => {
    // The branch's own keys come first; the shared ones fill what it leaves open.
    const result = lowerNode({ allOf: [branch, shared] }, context)
    return nullable ? withNullable(result) : result
  })
  if (lowered.length === 0) return withNullable(lowerSingle(shared, inferType(shared), true, context))
  if (lowered.length === 1) return lowered[0] ?? {}
  return anyOfNode(lowered)
}

function isNullOnly(node: Record<string, unknown>): boolean {
  const types = declaredTypes(node)
  if (types.length > 0) return types.every((type) => type === 'null')
  const values = enumValues(node)
  return values !== undefined && values.length > 0 && values.every((value) => value === null)
}

function withNullable(schema: GeminiSchema): GeminiSchema {
  if (schema.anyOf !== undefined) return { anyOf: schema.anyOf.map(withNullable) }
  return { ...schema, nullable: true }
}

// `anyOf` stands alone on its node (the API rejects it beside `type` or anything else); nested unions are
// flattened, since (A ∨ B) ∨ C is A ∨ B ∨ C.
function anyOfNode(branches: GeminiSchema[]): GeminiSchema {
  const flat = branches.flatMap((branch) => branch.anyOf ?? [branch])
  return flat.length === 1 ? (flat[0] ?? {}) : { anyOf: flat }
}

function lowerSingle(
  node: Record<string, unknown>,
  type: GeminiSchemaType | undefined,
  nullable: boolean,
  context: LowerContext,
): GeminiSchema {
  const notes: string[] = []
  const values = enumValues(node)
  if (values !== undefined) {
    const split = lowerEnum(node, type, values, nullable, context)
    if (split !== undefined) return split
  }

  const result: GeminiSchema = {}
  if (type !== undefined) result.type = type
  copyString(node, 'title', result)
  const description = stringOrUndefined(node.description)
  if (nullable) result.nullable = true
  copyJson(node, 'default', result)
  const example = Object.hasOwn(node, 'example')
    ? node.example
    : Array.isArray(node.examples)
      ? node.examples[0]
      : undefined
  const exampleCopy = cloneJson(example)
  if (exampleCopy !== undefined) result.example = exampleCopy

  const allowed = values?.filter((value) => value !== null) ?? []
  const scalarEnum = allowed.length > 0 && type !== 'array' && type !== 'object'
  if (scalarEnum) {
    // Gemini takes `enum` on strings only: a number or boolean enum becomes the string enum of its values'
    // text. The toolkit reads a string the model sends back as the declared type (coerce-args).
    result.type = 'string'
    result.enum = [...new Set(allowed.map(enumText))]
  } else if (allowed.length > 0) {
    notes.push(`Allowed values: ${allowed.map(enumText).join(', ')}.`)
  }

  const shape: GeminiSchemaType | undefined = scalarEnum ? 'string' : type

  if (typeof node.format === 'string') {
    if (shape !== undefined && allowedFormats[shape].includes(node.format) && node.format !== 'enum') {
      result.format = node.format
    } else if (node.format !== 'enum') {
      notes.push(`Format: ${node.format}.`)
    }
  }

  switch (shape) {
    case 'string':
      copyInteger(node, 'minLength', result)
      copyInteger(node, 'maxLength', result)
      copyString(node, 'pattern', result)
      break
    case 'number':
    case 'integer':
      lowerBounds(node, shape, result)
      break
    case 'array':
      result.items = lowerItems(node, context)
      copyInteger(node, 'minItems', result)
      copyInteger(node, 'maxItems', result)
      break
    case 'object':
      lowerObject(node, context, result)
      break
    case 'boolean':
    case undefined:
      break
    default:
      return assertNever(shape)
  }

  const fullDescription = joinSentences([description, ...notes])
  if (fullDescription !== '') result.description = fullDescription
  return orderKeys(result)
}

// An enum mixing scalars with arrays or objects becomes one branch per kind.
function lowerEnum(
  node: Record<string, unknown>,
  type: GeminiSchemaType | undefined,
  values: unknown[],
  nullable: boolean,
  context: LowerContext,
): GeminiSchema | undefined {
  if (type !== undefined) return undefined
  const kinds = [...new Set(values.filter((value) => value !== null).map(kindOf))]
  // Scalars of any kind share one string enum; only arrays and objects need a branch of their own.
  if (kinds.length <= 1 || kinds.every((kind) => kind !== 'array' && kind !== 'object')) return undefined
  const branches = kinds.map((kind) => {
    const branchValues = values.filter((value) => value !== null && kindOf(value) === kind)
    return lowerSingle({ ...node, enum: branchValues }, kind, nullable, context)
  })
  return anyOfNode(branches)
}

function enumValues(node: Record<string, unknown>): unknown[] | undefined {
  if (Object.hasOwn(node, 'const')) return [node.const]
  return Array.isArray(node.enum) ? node.enum : undefined
}

function kindOf(value: unknown): GeminiSchemaType {
  if (typeof value === 'string') return 'string'
  if (typeof value === 'boolean') return 'boolean'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'object' && value !== null) return 'object'
  return 'string'
}

function enumText(value: unknown): string {
  if (typeof value === 'string') return value
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

function lowerBounds(node: Record<string, unknown>, type: 'number' | 'integer', result: GeminiSchema): void {
  const step = type === 'integer' ? 1 : 0
  copyNumber(node, 'minimum', result)
  copyNumber(node, 'maximum', result)
  // Draft 6+ exclusive bounds are numbers; draft 4's are booleans beside minimum/maximum. For integers the
  // bound is exact (x > 0 is x ≥ 1); for numbers the closed bound is the nearest the subset can say.
  const exclusiveMinimum = node.exclusiveMinimum
  if (isFiniteNumber(exclusiveMinimum)) {
    const bound = nextInteger(exclusiveMinimum, step, 1)
    if (result.minimum === undefined || bound > result.minimum) result.minimum = bound
  } else if (exclusiveMinimum === true && result.minimum !== undefined) {
    result.minimum = nextInteger(result.minimum, step, 1)
  }
  const exclusiveMaximum = node.exclusiveMaximum
  if (isFiniteNumber(exclusiveMaximum)) {
    const bound = nextInteger(exclusiveMaximum, step, -1)
    if (result.maximum === undefined || bound < result.maximum) result.maximum = bound
  } else if (exclusiveMaximum === true && result.maximum !== undefined) {
    result.maximum = nextInteger(result.maximum, step, -1)
  }
}

function nextInteger(bound: number, step: number, direction: 1 | -1): number {
  if (step === 0) return bound
  const next = Number.isInteger(bound)
    ? bound + direction
    : direction === 1
      ? Math.ceil(bound)
      : Math.floor(bound)
  // `Math.ceil(-0.5)` is -0, which JSON cannot tell from 0.
  return next === 0 ? 0 : next
}

// Gemini needs `items` on every array. Tuples (`prefixItems`, draft-07 `items: [...]`) become one schema:
// the union of their positions.
function lowerItems(node: Record<string, unknown>, context: LowerContext): GeminiSchema {
  const tuple = Array.isArray(node.prefixItems)
    ? node.prefixItems
    : Array.isArray(node.items)
      ? node.items
      : []
  const single = isRecord(node.items) ? [node.items] : []
  const positions = [...tuple, ...single].filter(isRecord)
  if (positions.length === 0) return {}
  const lowered = positions.map((position) => lowerNode(position, context))
  const distinct = lowered.filter(
    (schema, index) =>
      lowered.findIndex((other) => JSON.stringify(other) === JSON.stringify(schema)) === index,
  )
  return anyOfNode(distinct)
}

function lowerObject(node: Record<string, unknown>, context: LowerContext, result: GeminiSchema): void {
  const source = isRecord(node.properties) ? node.properties : {}
  const entries = Object.entries(source).map(
    ([name, property]) => [name, lowerNode(property, context)] as [string, GeminiSchema],
  )
  if (entries.length > 0) result.properties = Object.fromEntries(entries)
  const names = new Set(entries.map(([name]) => name))
  if (Array.isArray(node.required)) {
    const required = [
      ...new Set(node.required.filter((name): name is string => typeof name === 'string' && names.has(name))),
    ]
    if (required.length > 0) result.required = required
  }
  if (Array.isArray(node.propertyOrdering)) {
    const ordering = node.propertyOrdering.filter(
      (name): name is string => typeof name === 'string' && names.has(name),
    )
    if (ordering.length > 0) result.propertyOrdering = [...new Set(ordering)]
  }
  copyInteger(node, 'minProperties', result)
  copyInteger(node, 'maxProperties', result)
}

function declaredTypes(node: Record<string, unknown>): (GeminiSchemaType | 'null')[] {
  const raw: unknown[] = Array.isArray(node.type) ? node.type : [node.type]
  const types = raw.filter(
    (type): type is GeminiSchemaType | 'null' =>
      type === 'null' || schemaTypes.some((known) => known === type),
  )
  return [...new Set(types)]
}

// Many MCP servers omit `type`; the keywords present still say it.
function inferType(node: Record<string, unknown>): GeminiSchemaType | undefined {
  if (isRecord(node.properties) || Array.isArray(node.required)) return 'object'
  if (node.items !== undefined || Array.isArray(node.prefixItems)) return 'array'
  const values = enumValues(node)?.filter((value) => value !== null)
  if (values !== undefined && values.length > 0) {
    const kinds = new Set(values.map(kindOf))
    if (kinds.size === 1) return [...kinds][0]
    return undefined
  }
  if (typeof node.pattern === 'string' || node.minLength !== undefined || node.maxLength !== undefined) {
    return 'string'
  }
  if (node.minimum !== undefined || node.maximum !== undefined) return 'number'
  return undefined
}

type LooseSchema = { [Key in keyof GeminiSchema]?: GeminiSchema[Key] | undefined }

// A stable key order keeps snapshots and request bodies readable: the order of the subset's key list.
function orderKeys(schema: LooseSchema): GeminiSchema {
  const entries = GEMINI_SCHEMA_KEYS.flatMap((key) => (schema[key] === undefined ? [] : [[key, schema[key]]]))
  // Same keys and values as `schema`, only reordered.
  return Object.fromEntries(entries) as GeminiSchema
}

function copyString(node: Record<string, unknown>, key: 'title' | 'pattern', result: GeminiSchema): void {
  const value = node[key]
  if (typeof value === 'string') result[key] = value
}

function copyNumber(node: Record<string, unknown>, key: 'minimum' | 'maximum', result: GeminiSchema): void {
  const value = node[key]
  if (isFiniteNumber(value)) result[key] = value === 0 ? 0 : value
}

function copyInteger(
  node: Record<string, unknown>,
  key: 'minLength' | 'maxLength' | 'minItems' | 'maxItems' | 'minProperties' | 'maxProperties',
  result: GeminiSchema,
): void {
  const value = node[key]
  if (isFiniteNumber(value) && Number.isSafeInteger(value) && value >= 0) result[key] = value
}

function copyJson(node: Record<string, unknown>, key: 'default', result: GeminiSchema): void {
  if (!Object.hasOwn(node, key)) return
  const copy = cloneJson(node[key])
  if (copy !== undefined) result[key] = copy
}

// The output must share nothing with the input (SDKs rewrite request objects in place), and hold only JSON.
function cloneJson(value: unknown): unknown {
  if (value === undefined) return undefined
  try {
    const text = JSON.stringify(value)
    return text === undefined ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

function ownValue(value: unknown): PropertyDescriptor {
  return { value, enumerable: true, writable: true, configurable: true }
}

// The schema's own description, then our notes, each ending as a sentence so they read apart.
function joinSentences(parts: (string | undefined)[]): string {
  const present = parts.filter((part): part is string => part !== undefined && part.trim() !== '')
  return present
    .map((part, index) =>
      index < present.length - 1 && !/[.!?:]$/.test(part.trim()) ? `${part.trim()}.` : part,
    )
    .join(' ')
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}

function assertNever(value: never): never {
  throw new Error(`Unexpected schema type: ${String(value)}`)
}
