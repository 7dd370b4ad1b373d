import { isRecord } from '../../shared/is-record.js'
import { anyOfNode, anyValue, distinctSchemas, withNullable } from './any-value.js'
import {
  cloneJson,
  copyInteger,
  copyJson,
  copyString,
  joinSentences,
  lowerBounds,
  stringOrUndefined,
} from './copy-keywords.js'
import { cycleStub, simplifiedNode } from './cycle-stub.js'
import { declaredTypes, enumText, enumValues, inferType, isNullOnly, kindOf } from './declared-types.js'
import {
  allowedFormats,
  GEMINI_SCHEMA_KEYS,
  type GeminiSchema,
  type GeminiSchemaType,
  orderKeys,
} from './gemini-schema.js'
import {
  type LowerContext,
  type LowerState,
  MAX_DEPTH,
  MAX_OUTPUT_DEPTH,
  type MemoEntry,
} from './lower-state.js'
import { mergeAllOf } from './merge-all-of.js'
import { resolveReference } from './resolve-reference.js'

// Lowers one input node, reusing an earlier lowering of the same node where it did not depend on its path.
export function lowerNode(input: unknown, context: LowerContext, state: LowerState): GeminiSchema {
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

function assertNever(value: never): never {
  throw new Error(`Unexpected schema type: ${String(value)}`)
}
