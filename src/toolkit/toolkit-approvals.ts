import type { Tool } from '../tool/types.js'

// Kept beside the toolkit rather than on its public interface: only toolnexus's MCP server asks.
const lookups = new WeakMap<object, (name: string) => boolean>()

/**
 * Records how to tell, by exposed name, whether a toolkit's tool may need approval (its own
 * `needsApproval` or the toolkit's `approval` policy), whatever its arguments.
 *
 * @example
 * registerApprovalLookup(toolkit, (name) => rules.has(name))
 */
export function registerApprovalLookup(toolkit: object, mayNeedApproval: (name: string) => boolean): void {
  lookups.set(toolkit, mayNeedApproval)
}

/**
 * Whether some call of `tool` may wait for a person's approval. For a toolkit made elsewhere, the tool's
 * own `needsApproval` decides.
 *
 * @example
 * const hidden = toolkit.tools().filter((tool) => mayNeedApproval(toolkit, tool))
 */
export function mayNeedApproval(toolkit: object, tool: Tool): boolean {
  const lookup = lookups.get(toolkit)
  if (lookup !== undefined) return lookup(tool.name)
  return tool.needsApproval === true || typeof tool.needsApproval === 'function'
}
