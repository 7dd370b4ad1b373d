import { isRecord } from '../../shared/is-record.js'
import { type LowerContext, type LowerState, MAX_DEPTH } from './lower-state.js'

type Resolution =
  | { kind: 'resolved'; node: Record<string, unknown>; context: LowerContext }
  | { kind: 'target'; target: Record<string, unknown>; context: LowerContext }
  | { kind: 'cycle'; node: Record<string, unknown>; target: unknown; reference: string }

// Inlines `$ref` (JSON pointers into the root document), keeping keys written beside it. A reference already
// being expanded on this path is a cycle: it is cut instead of expanded forever.
export function resolveReference(
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
export function resolveCached(reference: string, state: LowerState): unknown {
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

export function decodePointerSegment(raw: string): string {
  let segment = raw
  try {
    segment = decodeURIComponent(raw)
  } catch {
    // A malformed escape is taken literally.
  }
  return segment.replaceAll('~1', '/').replaceAll('~0', '~')
}
