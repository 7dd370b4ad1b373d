import { isRecord } from '../../shared/is-record.js'
import { ownValue } from './copy-keywords.js'
import type { LowerContext, LowerState } from './lower-state.js'
import { resolveReference } from './resolve-reference.js'

interface Merged {
  node: Record<string, unknown>
  /** Carries the references expanded while merging, so a recursion through `allOf` is still cut. */
  context: LowerContext
}

// `allOf` branches are merged into their node: properties joined, `required` united, other keys kept from
// whichever says them first (the node itself before its branches).
export function mergeAllOf(node: Record<string, unknown>, context: LowerContext, state: LowerState): Merged {
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
