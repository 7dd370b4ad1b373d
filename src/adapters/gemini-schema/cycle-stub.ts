import { isRecord } from '../../shared/is-record.js'
import { typedNode } from './any-value.js'
import { joinSentences, stringOrUndefined } from './copy-keywords.js'
import { declaredTypes, inferType } from './declared-types.js'
import type { GeminiSchema } from './gemini-schema.js'
import type { LowerState } from './lower-state.js'
import { decodePointerSegment, resolveCached } from './resolve-reference.js'

// A recursive reference, met the second time on a path, stops here: the model still learns the value's
// type and that it nests, without an endless schema.
export function cycleStub(
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
export function simplifiedNode(input: Record<string, unknown>, state: LowerState): GeminiSchema {
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
