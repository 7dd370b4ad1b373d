import { isRecord } from '../../shared/is-record.js'
import { describe } from './describe-node.js'
import type { StrictState } from './strict-state.js'

// What strict mode cannot say, since it names every property and every item's schema: an object that names
// no property (a map, or anything), or an array without `items`. Only the root of a tool without arguments
// may name none.
export function freeFormKind(
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
export function jsonText(
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
