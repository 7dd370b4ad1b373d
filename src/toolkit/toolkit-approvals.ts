import type { Tool } from '../tool/types.js'
import type { ToolRunner } from './toolkit.js'

/**
 * Whether some call of `tool` may wait for a person's approval: the toolkit's `mayNeedApproval` when it
 * has one, else the tool's own `needsApproval`.
 *
 * @example
 * const hidden = toolkit.tools().filter((tool) => mayNeedApproval(toolkit, tool))
 */
export function mayNeedApproval(toolkit: ToolRunner, tool: Tool): boolean {
  if (toolkit.mayNeedApproval !== undefined) return toolkit.mayNeedApproval(tool.name)
  return tool.needsApproval === true || typeof tool.needsApproval === 'function'
}
