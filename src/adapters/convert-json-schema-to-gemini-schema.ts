import { isRecord } from '../shared/is-record.js'
import { renamedProperties } from '../tool/property-names.js'
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
// A reused (memoized) subtree is copied only while the copy stays this shallow, so the output's depth stays
// bounded however the reuses nest.
const MAX_OUTPUT_DEPTH = 64

/**
 * The work a lowering may do: a floor every real schema fits in, plus a share proportional to the input, so
 * the time and output size stay linear in the input whatever it holds. One unit is one node visited, one key
 * merged, one enum value or one reused output node copied.
 */
const BUDGET_FLOOR = 10_000
const BUDGET_PER_INPUT_NODE = 20

/**
 * What lowering one schema produced: the lowered schema, and what it could not keep.
 *
 * @example
 * const { schema, simplified } = lowerJsonSchemaToGemini({ type: 'object', properties: { a: { type: 'string' } } })
 * simplified // 0
 */
export interface GeminiLowering {
  schema: GeminiSchema
  /** Nodes described instead of expanded because the work budget ran out (0 for every real schema). */
  simplified: number
  /** The JSON Schema keywords that Gemini's subset cannot say and that were dropped or moved into a description. */
  dropped: readonly string[]
  /** Property names Gemini refuses, as `original → sent` (the toolkit maps the sent names back). */
  renamed: readonly string[]
}

interface MemoEntry {
  schema: GeminiSchema
  /** Measured on first reuse: output nodes and depth. */
  size?: number
  height?: number
}

/** The lowering's mutable state, one per schema. */
interface LowerState {
  /** The document `$ref`s point into. */
  root: unknown
  /** Work units left; at zero every further node is described, not expanded. */
  budget: number
  simplified: number
  dropped: Set<string>
  /** Input objects on the current path, so a JS-level cycle in the input ends too. */
  onPath: Set<object>
  /** Input node → its lowering, reused when that lowering did not depend on the path it was made on. */
  memo: Map<object, MemoEntry>
  /** `$ref` → what it points at. */
  pointers: Map<string, unknown>
  /**
   * The shallowest position in the `$ref` path that a cut (a recursive reference, the depth guard) inside the
   * node being lowered depended on. A lowering that depended only on references it expanded itself is the
   * same wherever the node appears, so it can be reused.
   */
  dependsOn: number
}

interface LowerContext {
  /** `$ref`s being expanded on the current path: a second visit is a cycle. */
  refs: readonly string[]
  depth: number
}

/**
 * Lowers a tool's JSON Schema into Gemini's `Schema` subset, keeping meaning where the subset can say it:
 * `$ref`/`$defs` inlined (a recursive reference is expanded once, then cut), `const` → a one-value `enum`,
 * a `null` type or branch → `nullable`, other type arrays and `oneOf` → `anyOf` alone on its node, `allOf`
 * merged, enum values as strings (a number or boolean enum becomes a string enum; the toolkit reads the string
 * the model sends back as the declared type), `required` only naming existing
 * properties, and every key outside the subset dropped. Every node carries a `type` (Gemini answers 400
 * "type: must be specified" otherwise) except a node that is only an `anyOf`: a node that allows any value
 * becomes the union of every kind Gemini can say. The root is always an object. Time and output size are
 * linear in the input: reused references are lowered once, and past a work budget a node is described
 * instead of expanded. Never throws and never mutates `schema`: the result shares no object with it.
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
  return lowerJsonSchemaToGemini(schema).schema
}

/**
 * {@link convertJsonSchemaToGeminiSchema}, also saying what the lowering could not keep: how many nodes the
 * work budget cut short and which keywords were dropped.
 *
 * @example
 * lowerJsonSchemaToGemini({ type: 'object', properties: { id: { type: 'string', format: 'uuid' } } }).dropped // ['format']
 */
export function lowerJsonSchemaToGemini(schema: JSONSchema): GeminiLowering {
  const state: LowerState = {
    root: schema,
    budget: BUDGET_FLOOR + BUDGET_PER_INPUT_NODE * countNodes(schema),
    simplified: 0,
    dropped: new Set(),
    onPath: new Set(),
    memo: new Map(),
    pointers: new Map(),
    dependsOn: Number.POSITIVE_INFINITY,
  }
  const lowered = toObjectRoot(lowerNode(schema, { refs: ['#'], depth: 0 }, state))
  const renamed = new Set<string>()
  renameProperties(lowered, renamed, 0)
  return {
    schema: lowered,
    simplified: state.simplified,
    dropped: [...state.dropped].sort(),
    renamed: [...renamed],
  }
}

// Property names Gemini refuses are sent renamed (`filter[id]` → `filter_id_`), in `required` and
// `propertyOrdering` too; the lowered tree is this lowering's own, so it is renamed in place.
function renameProperties(schema: GeminiSchema, renamed: Set<string>, depth: number): void {
  if (depth > MAX_OUTPUT_DEPTH * 2) return
  if (schema.properties !== undefined) {
    const names = renamedProperties(Object.keys(schema.properties))
    if (names.size > 0) {
      const properties: Record<string, GeminiSchema> = {}
      for (const [name, property] of Object.entries(schema.properties)) {
        Object.defineProperty(properties, names.get(name) ?? name, ownValue(property))
      }
      schema.properties = properties
      for (const key of ['required', 'propertyOrdering'] as const) {
        const list = schema[key]
        if (list !== undefined) schema[key] = list.map((name) => names.get(name) ?? name)
      }
      for (const [from, to] of names) renamed.add(`${from} → ${to}`)
    }
    for (const property of Object.values(schema.properties)) renameProperties(property, renamed, depth + 1)
  }
  if (schema.items !== undefined) renameProperties(schema.items, renamed, depth + 1)
  for (const branch of schema.anyOf ?? []) renameProperties(branch, renamed, depth + 1)
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

// Objects and arrays in the input, each counted once (shared subtrees and cycles too): the input's size.
function countNodes(schema: unknown): number {
  const seen = new Set<object>()
  const stack: unknown[] = [schema]
  while (stack.length > 0) {
    const value = stack.pop()
    if (typeof value !== 'object' || value === null || seen.has(value)) continue
    seen.add(value)
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push(child)
  }
  return seen.size
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
  const distinct = distinctSchemas(schemas)
  const first = distinct[0] ?? anyValue(undefined, false)
  if (distinct.length === 1) return first
  if (distinct.every((schema) => schema.type === 'string' && schema.enum !== undefined)) {
    return { ...first, enum: [...new Set(distinct.flatMap((schema) => schema.enum ?? []))] }
  }
  return anyOfNode(distinct)
}

function lowerNode(input: unknown, context: LowerContext, state: LowerState): GeminiSchema {
  // `true`, `{}`-like non-objects and anything that is not a schema object allow any value.
  if (!isRecord(input)) return anyValue(undefined, false, state)
  if (state.budget <= 0) return simplifiedNode(input, state)
  if (state.onPath.has(input)) {
    // The same object inside itself (a JS-level cycle): cut like a recursive reference.
    state.dependsOn = -1
    return cycleStub(input, {}, 'this value', state)
  }
  const memo = state.memo.get(input)
  if (memo !== undefined) {
    const reused = reuse(memo, context, state)
    if (reused !== undefined) return reused
  }
  if (context.depth > MAX_DEPTH) {
    state.dependsOn = -1
    return simplifiedNode(input, state)
  }
  state.budget -= 1
  const outer = state.dependsOn
  state.dependsOn = Number.POSITIVE_INFINITY
  state.onPath.add(input)
  let result: GeminiSchema
  try {
    result = lowerFresh(input, { refs: context.refs, depth: context.depth + 1 }, state)
  } finally {
    state.onPath.delete(input)
  }
  // Cut only at references it expanded itself: the same lowering wherever this node appears again.
  if (state.dependsOn >= context.refs.length) state.memo.set(input, { schema: result })
  state.dependsOn = Math.min(outer, state.dependsOn)
  return result
}

function lowerFresh(input: Record<string, unknown>, context: LowerContext, state: LowerState): GeminiSchema {
  const resolved = resolveReference(input, context, state)
  switch (resolved.kind) {
    case 'cycle':
      return cycleStub(resolved.target, resolved.node, resolved.reference, state)
    case 'target':
      // A bare `$ref`: lowering the definition itself lets every other use of it reuse the result.
      return lowerNode(resolved.target, resolved.context, state)
    case 'resolved': {
      const merged = mergeAllOf(resolved.node, resolved.context, state)
      return lowerResolved(merged.node, merged.context, state)
    }
    default:
      return assertNever(resolved)
  }
}

// A reused subtree is copied (the output shares no object with itself either), and the copy is paid for.
function reuse(memo: MemoEntry, context: LowerContext, state: LowerState): GeminiSchema | undefined {
  if (memo.size === undefined || memo.height === undefined) {
    const measured = measure(memo.schema)
    memo.size = measured.size
    memo.height = measured.height
  }
  if (context.depth + memo.height > MAX_OUTPUT_DEPTH || memo.size > state.budget) return undefined
  state.budget -= memo.size
  return JSON.parse(JSON.stringify(memo.schema)) as GeminiSchema
}

function measure(schema: GeminiSchema): { size: number; height: number } {
  let size = 1
  let height = 0
  const children = [
    ...Object.values(schema.properties ?? {}),
    ...(schema.items === undefined ? [] : [schema.items]),
    ...(schema.anyOf ?? []),
  ]
  for (const child of children) {
    const measured = measure(child)
    size += measured.size
    height = Math.max(height, measured.height)
  }
  return { size, height: height + 1 }
}

type Resolution =
  | { kind: 'resolved'; node: Record<string, unknown>; context: LowerContext }
  | { kind: 'target'; target: Record<string, unknown>; context: LowerContext }
  | { kind: 'cycle'; node: Record<string, unknown>; target: unknown; reference: string }

// Inlines `$ref` (JSON pointers into the root document), keeping keys written beside it. A reference already
// being expanded on this path is a cycle: it is cut instead of expanded forever.
function resolveReference(
  node: Record<string, unknown>,
  context: LowerContext,
  state: LowerState,
): Resolution {
  let current = node
  let refs = context.refs
  // A chain of references ($ref to a node that is itself a $ref) resolves step by step.
  for (let hops = 0; typeof current.$ref === 'string' && hops < MAX_DEPTH; hops++) {
    const reference = current.$ref
    const { $ref: _ref, ...siblings } = current
    const target = resolveCached(reference, state)
    const position = refs.indexOf(reference)
    if (position >= 0) {
      state.dependsOn = Math.min(state.dependsOn, position)
      return { kind: 'cycle', node: siblings, target, reference }
    }
    refs = [...refs, reference]
    if (isRecord(target) && Object.keys(siblings).length === 0) {
      return { kind: 'target', target, context: { ...context, refs } }
    }
    current = isRecord(target) ? { ...target, ...siblings } : siblings
  }
  return { kind: 'resolved', node: current, context: { ...context, refs } }
}

// Each reference is looked up once per schema.
function resolveCached(reference: string, state: LowerState): unknown {
  if (state.pointers.has(reference)) return state.pointers.get(reference)
  const target = resolvePointer(state.root, reference)
  state.pointers.set(reference, target)
  return target
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
function cycleStub(
  target: unknown,
  siblings: Record<string, unknown>,
  reference: string,
  state: LowerState,
): GeminiSchema {
  const type = isRecord(target)
    ? (declaredTypes(target).find((each) => each !== 'null') ?? inferType(target))
    : undefined
  const name =
    reference === '#'
      ? 'the arguments'
      : reference.startsWith('#')
        ? decodePointerSegment(reference.split('/').at(-1) ?? '')
        : reference
  const own =
    stringOrUndefined(siblings.description) ??
    (isRecord(target) ? stringOrUndefined(target.description) : undefined)
  const description = joinSentences([own, `Recursive: same shape as ${name} (not expanded further).`])
  return typedNode(type, description, false, state)
}

// Past the work budget or the depth guard: the node keeps its type and description (read through a
// `$ref` chain, a few hops, without expanding anything), nothing below it.
function simplifiedNode(input: Record<string, unknown>, state: LowerState): GeminiSchema {
  state.simplified += 1
  state.budget -= 1
  let node = input
  for (let hops = 0; typeof node.$ref === 'string' && hops < 4; hops++) {
    const target = resolveCached(node.$ref, state)
    if (!isRecord(target)) break
    const { $ref: _ref, ...siblings } = node
    node = { ...target, ...siblings }
  }
  const types = declaredTypes(node)
  const type = types.find((each) => each !== 'null') ?? inferType(node)
  const nullable = types.includes('null') || node.nullable === true
  const description = joinSentences([
    stringOrUndefined(node.description),
    'Not expanded: too large or too deep to send in full.',
  ])
  return typedNode(type ?? 'string', description, nullable, state)
}

function typedNode(
  type: GeminiSchemaType | undefined,
  description: string,
  nullable: boolean,
  state: LowerState,
): GeminiSchema {
  if (type === undefined) return anyValue(description, nullable, state)
  const node: GeminiSchema = { type }
  if (description !== '') node.description = description
  if (nullable) node.nullable = true
  if (type === 'array') node.items = anyValue(undefined, false, state)
  return node
}

// The kinds an "any value" node offers. Gemini wants a `type` on every node, and a value that may be anything
// is, in its subset, the union of every kind it can say; an array holds any scalar or object.
const ANY_SCALAR_KINDS: readonly GeminiSchemaType[] = ['string', 'number', 'boolean', 'object']

/**
 * A node that allows any value, typed as Gemini demands: `anyOf` string, number, boolean, object and an array
 * of those. A description goes on every branch, since an `anyOf` node carries nothing else.
 */
function anyValue(description: string | undefined, nullable: boolean, state?: LowerState): GeminiSchema {
  // Ten output nodes, paid for like any others.
  if (state !== undefined) state.budget -= 10
  const label = (type: GeminiSchemaType): GeminiSchema => {
    const branch: GeminiSchema = { type }
    if (description !== undefined && description !== '') branch.description = description
    if (nullable) branch.nullable = true
    return branch
  }
  const items: GeminiSchema = { anyOf: ANY_SCALAR_KINDS.map((type) => ({ type })) }
  return { anyOf: [...ANY_SCALAR_KINDS.map(label), { ...label('array'), items }] }
}

interface Merged {
  node: Record<string, unknown>
  /** Carries the references expanded while merging, so a recursion through `allOf` is still cut. */
  context: LowerContext
}

// `allOf` branches are merged into their node: properties joined, `required` united, other keys kept from
// whichever says them first (the node itself before its branches).
function mergeAllOf(node: Record<string, unknown>, context: LowerContext, state: LowerState): Merged {
  if (!Array.isArray(node.allOf)) return { node, context }
  const { allOf, ...rest } = node
  let merged: Record<string, unknown> = rest
  let current = context
  for (const branch of allOf) {
    if (!isRecord(branch) || state.budget <= 0) continue
    const resolved = resolveReference(branch, current, state)
    if (resolved.kind === 'cycle') continue
    const target = resolved.kind === 'target' ? resolved.target : resolved.node
    const inner = mergeAllOf(target, resolved.context, state)
    merged = mergeSchemas(merged, inner.node, state)
    current = inner.context
  }
  return { node: merged, context: current }
}

function mergeSchemas(
  first: Record<string, unknown>,
  second: Record<string, unknown>,
  state: LowerState,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...first }
  const entries = Object.entries(second)
  state.budget -= entries.length
  for (const [key, value] of entries) {
    if (key === 'properties' && isRecord(value) && isRecord(merged.properties)) {
      const properties: Record<string, unknown> = { ...merged.properties }
      const names = Object.entries(value)
      state.budget -= names.length
      for (const [name, property] of names) {
        const existing = Object.hasOwn(properties, name) ? properties[name] : undefined
        const combined = isRecord(existing) && isRecord(property) ? { allOf: [existing, property] } : property
        Object.defineProperty(properties, name, ownValue(combined))
      }
      merged.properties = properties
    } else if (key === 'required' && Array.isArray(value) && Array.isArray(merged.required)) {
      state.budget -= value.length
      merged.required = [...new Set([...merged.required, ...value])]
    } else if (!Object.hasOwn(merged, key)) {
      Object.defineProperty(merged, key, ownValue(value))
    }
  }
  return merged
}

function lowerResolved(
  node: Record<string, unknown>,
  context: LowerContext,
  state: LowerState,
): GeminiSchema {
  const branches = unionBranches(node)
  if (branches !== undefined) return lowerUnion(node, branches, context, state)

  const types = declaredTypes(node)
  const nullable =
    types.includes('null') || node.nullable === true || enumValues(node)?.includes(null) === true
  const nonNull = types.filter((type): type is GeminiSchemaType => type !== 'null')
  if (nonNull.length > 1) {
    const split = nonNull.map((type) => ({ ...node, type, nullable }))
    return anyOfNode(split.map((branch) => lowerResolved(branch, context, state)))
  }
  return lowerSingle(node, nonNull[0] ?? inferType(node), nullable, context, state)
}

// `anyOf`/`oneOf` (a node with both keeps `anyOf`); `{ type: 'null' }` branches become `nullable` on the rest.
function unionBranches(node: Record<string, unknown>): unknown[] | undefined {
  const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined
  return union !== undefined && union.length > 0 ? union : undefined
}

function lowerUnion(
  node: Record<string, unknown>,
  branches: unknown[],
  context: LowerContext,
  state: LowerState,
): GeminiSchema {
  const { anyOf: _anyOf, oneOf: _oneOf, ...siblings } = node
  let nullable = siblings.nullable === true || declaredTypes(siblings).includes('null')
  const kept: unknown[] = []
  state.budget -= branches.length
  for (const branch of branches) {
    if (isRecord(branch)) {
      const resolved = resolveReference(branch, context, state)
      const target =
        resolved.kind === 'cycle'
          ? undefined
          : mergeAllOf(resolved.kind === 'target' ? resolved.target : resolved.node, resolved.context, state)
              .node
      if (target !== undefined && isNullOnly(target)) {
        nullable = true
        continue
      }
    }
    // A branch that is not an object (`true`) allows any value; it stays a branch.
    kept.push(branch)
  }
  // The keys beside the union hold for every branch: distributing them keeps the meaning exactly.
  const shared: Record<string, unknown> = { ...siblings }
  if (Array.isArray(shared.type)) shared.type = shared.type.filter((type) => type !== 'null')
  if (Array.isArray(shared.type) && shared.type.length === 0) delete shared.type
  const hasShared = Object.keys(shared).some((key) => key !== 'nullable')
  const lowered = kept.map((branch) => {
    // The branch's own keys come first; the shared ones fill what it leaves open. Without shared keys the
    // branch is lowered as it is, so a branch used elsewhere too is lowered once.
    const result =
      hasShared || !isRecord(branch)
        ? lowerNode({ allOf: [isRecord(branch) ? branch : {}, shared] }, context, state)
        : lowerNode(branch, context, state)
    return nullable ? withNullable(result) : result
  })
  if (lowered.length === 0) {
    return withNullable(lowerSingle(shared, inferType(shared), true, context, state))
  }
  if (lowered.length === 1) return lowered[0] ?? anyValue(undefined, nullable)
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
  return flat.length === 1 ? (flat[0] ?? anyValue(undefined, false)) : { anyOf: flat }
}

// Keys a lowering reads or turns into something Gemini can say; any other key is reported as lost.
const READ_KEYS = new Set<string>([
  ...GEMINI_SCHEMA_KEYS,
  '$ref',
  '$defs',
  'definitions',
  '$schema',
  '$id',
  '$comment',
  'allOf',
  'oneOf',
  'const',
  'examples',
  'prefixItems',
  'exclusiveMinimum',
  'exclusiveMaximum',
])

function lowerSingle(
  node: Record<string, unknown>,
  type: GeminiSchemaType | undefined,
  nullable: boolean,
  context: LowerContext,
  state: LowerState,
): GeminiSchema {
  const notes: string[] = []
  const values = enumValues(node)
  if (values !== undefined) {
    state.budget -= values.length
    const split = lowerEnum(node, type, values, nullable, context, state)
    if (split !== undefined) return split
  }
  for (const key in node) {
    if (!READ_KEYS.has(key)) state.dropped.add(key)
  }

  const result: GeminiSchema = {}
  if (type !== undefined) result.type = type
  copyString(node, 'title', result)
  const description = stringOrUndefined(node.description)
  if (nullable) result.nullable = true
  copyJson(node, 'default', result, state)
  const example = Object.hasOwn(node, 'example')
    ? node.example
    : Array.isArray(node.examples)
      ? node.examples[0]
      : undefined
  const exampleCopy = cloneJson(example, state)
  if (exampleCopy !== undefined) result.example = exampleCopy

  const allowed = values?.filter((value) => value !== null) ?? []
  const scalarEnum = allowed.length > 0 && type !== 'array' && type !== 'object'
  if (scalarEnum) {
    // Gemini takes `enum` on strings only: a number or boolean enum becomes the string enum of its values'
    // text. The toolkit reads a string the model sends back as the declared type (coerce-args).
    result.type = 'string'
    result.enum = [...new Set(allowed.map(enumText))]
  } else if (allowed.length > 0) {
    state.dropped.add('enum')
    notes.push(`Allowed values: ${allowed.map(enumText).join(', ')}.`)
  }

  const shape: GeminiSchemaType | undefined = scalarEnum ? 'string' : type

  if (typeof node.format === 'string') {
    if (shape !== undefined && allowedFormats[shape].includes(node.format) && node.format !== 'enum') {
      result.format = node.format
    } else if (node.format !== 'enum') {
      state.dropped.add('format')
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
      result.items = lowerItems(node, context, state)
      copyInteger(node, 'minItems', result)
      copyInteger(node, 'maxItems', result)
      break
    case 'object':
      lowerObject(node, context, result, state)
      break
    case 'boolean':
      break
    case undefined:
      // Nothing says what kind of value this is: any value, typed as the union of every kind.
      return anyValue(joinSentences([description, ...notes]), nullable, state)
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
  state: LowerState,
): GeminiSchema | undefined {
  if (type !== undefined) return undefined
  const kinds = [...new Set(values.filter((value) => value !== null).map(kindOf))]
  // Scalars of any kind share one string enum; only arrays and objects need a branch of their own.
  if (kinds.length <= 1 || kinds.every((kind) => kind !== 'array' && kind !== 'object')) return undefined
  const branches = kinds.map((kind) => {
    const branchValues = values.filter((value) => value !== null && kindOf(value) === kind)
    return lowerSingle({ ...node, enum: branchValues }, kind, nullable, context, state)
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

// Gemini needs typed `items` on every array. Tuples (`prefixItems`, draft-07 `items: [...]`) become one
// schema: the union of their positions. An array that says nothing of its items holds any value.
function lowerItems(node: Record<string, unknown>, context: LowerContext, state: LowerState): GeminiSchema {
  const tuple = Array.isArray(node.prefixItems)
    ? node.prefixItems
    : Array.isArray(node.items)
      ? node.items
      : []
  const single = node.items !== undefined && !Array.isArray(node.items) ? [node.items] : []
  const positions = [...tuple, ...single]
  if (positions.length === 0) return anyValue(undefined, false, state)
  state.budget -= positions.length
  return anyOfNode(distinctSchemas(positions.map((position) => lowerNode(position, context, state))))
}

// The schemas, each once (compared by their JSON text, computed once per schema).
function distinctSchemas(schemas: readonly GeminiSchema[]): GeminiSchema[] {
  if (schemas.length < 2) return [...schemas]
  const seen = new Set<string>()
  return schemas.filter((schema) => {
    const text = JSON.stringify(schema)
    if (seen.has(text)) return false
    seen.add(text)
    return true
  })
}

function lowerObject(
  node: Record<string, unknown>,
  context: LowerContext,
  result: GeminiSchema,
  state: LowerState,
): void {
  const source = isRecord(node.properties) ? node.properties : {}
  const entries = Object.entries(source).map(
    ([name, property]) => [name, lowerNode(property, context, state)] as [string, GeminiSchema],
  )
  if (entries.length > 0) result.properties = Object.fromEntries(entries)
  const names = new Set(entries.map(([name]) => name))
  if (Array.isArray(node.required)) {
    state.budget -= node.required.length
    const required = [
      ...new Set(node.required.filter((name): name is string => typeof name === 'string' && names.has(name))),
    ]
    if (required.length > 0) result.required = required
  }
  if (Array.isArray(node.propertyOrdering)) {
    state.budget -= node.propertyOrdering.length
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
  if (
    isRecord(node.properties) ||
    Array.isArray(node.required) ||
    isRecord(node.patternProperties) ||
    node.additionalProperties !== undefined ||
    node.minProperties !== undefined ||
    node.maxProperties !== undefined
  ) {
    return 'object'
  }
  if (
    node.items !== undefined ||
    Array.isArray(node.prefixItems) ||
    node.minItems !== undefined ||
    node.maxItems !== undefined
  ) {
    return 'array'
  }
  const values = enumValues(node)?.filter((value) => value !== null)
  if (values !== undefined && values.length > 0) {
    const kinds = new Set(values.map(kindOf))
    if (kinds.size === 1) return [...kinds][0]
    return undefined
  }
  if (typeof node.pattern === 'string' || node.minLength !== undefined || node.maxLength !== undefined) {
    return 'string'
  }
  if (typeof node.format === 'string') return 'string'
  if (
    node.minimum !== undefined ||
    node.maximum !== undefined ||
    node.exclusiveMinimum !== undefined ||
    node.exclusiveMaximum !== undefined ||
    node.multipleOf !== undefined
  ) {
    return 'number'
  }
  return undefined
}

type LooseSchema = { [Key in keyof GeminiSchema]?: GeminiSchema[Key] | undefined }

// A stable key order keeps snapshots and request bodies readable: the order of the subset's key list.
function orderKeys(schema: LooseSchema): GeminiSchema {
  const ordered: Record<string, unknown> = {}
  for (const key of GEMINI_SCHEMA_KEYS) {
    const value = schema[key]
    if (value !== undefined) ordered[key] = value
  }
  // Same keys and values as `schema`, only reordered.
  return ordered as GeminiSchema
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

function copyJson(
  node: Record<string, unknown>,
  key: 'default',
  result: GeminiSchema,
  state: LowerState,
): void {
  if (!Object.hasOwn(node, key)) return
  const copy = cloneJson(node[key], state)
  if (copy !== undefined) result[key] = copy
}

// The output must share nothing with the input (SDKs rewrite request objects in place), and hold only JSON.
function cloneJson(value: unknown, state: LowerState): unknown {
  if (value === undefined) return undefined
  try {
    const text = JSON.stringify(value)
    if (text === undefined) return undefined
    // A large default costs in proportion to its text, like any other part of the schema.
    state.budget -= text.length >> 6
    return JSON.parse(text)
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
