import type { GeminiSchema } from './gemini-schema.js'

// Deeper than any real tool schema; a guard against generated or self-referencing inputs.
export const MAX_DEPTH = 48
// A reused (memoized) subtree is copied only while the copy stays this shallow, so the output's depth stays
// bounded however the reuses nest.
export const MAX_OUTPUT_DEPTH = 64

/**
 * The work a lowering may do: a floor every real schema fits in, plus a share proportional to the input, so
 * the time and output size stay linear in the input whatever it holds. One unit is one node visited, one key
 * merged, one enum value or one reused output node copied.
 */
export const BUDGET_FLOOR = 10_000
export const BUDGET_PER_INPUT_NODE = 20

export interface MemoEntry {
  schema: GeminiSchema
  /** Measured on first reuse: output nodes and depth. */
  size?: number
  height?: number
}

/** The lowering's mutable state, one per schema. */
export interface LowerState {
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

export interface LowerContext {
  /** `$ref`s being expanded on the current path: a second visit is a cycle. */
  refs: readonly string[]
  depth: number
}
