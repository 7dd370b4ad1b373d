import { ConfigError } from '../errors.js'
import type { NeedsApproval, Tool } from '../tool/types.js'

/**
 * Which tools need a person's approval, for tools you did not write (MCP servers, skills, HTTP endpoints,
 * AI SDK tools). A tool's own `needsApproval` applies as well; a tool named here always asks.
 *
 * @example
 * const approval: ApprovalPolicy = { tools: ['github_create_issue'], mcp: 'destructive' }
 */
export interface ApprovalPolicy {
  /** Exposed tool names whose every call needs approval. */
  tools?: readonly string[]
  /**
   * `'destructive'`: every MCP tool the server marks `destructiveHint: true` and not `readOnlyHint: true`.
   * Tools the server did not annotate are not covered: name them in `tools`.
   */
  mcp?: 'destructive'
}

/** The checked policy, ready to ask per tool. */
export interface ApprovalRules {
  /** The rule for `tool`, or `undefined` when its calls run without asking. */
  ruleFor(tool: Tool): NeedsApproval | undefined
}

/**
 * Reads an `approval` option, refusing anything else with a message that says what to write.
 *
 * @example
 * readApprovalPolicy({ tools: ['send_email'] }).ruleFor(sendEmail) // true
 */
export function readApprovalPolicy(policy: ApprovalPolicy | undefined): ApprovalRules {
  if (policy === undefined) return { ruleFor: ownRule }
  const example = "Write approval: { tools: ['send_email'], mcp: 'destructive' }."
  if (typeof policy !== 'object' || policy === null) {
    throw new ConfigError(`\`approval\` must be an object. ${example}`, { field: 'approval' })
  }
  const { tools = [], mcp } = policy
  if (!Array.isArray(tools) || tools.some((name) => typeof name !== 'string')) {
    throw new ConfigError(`\`approval.tools\` must be an array of exposed tool names. ${example}`, {
      field: 'approval.tools',
    })
  }
  if (mcp !== undefined && mcp !== 'destructive') {
    throw new ConfigError(
      `\`approval.mcp\` can only be 'destructive', not ${JSON.stringify(mcp)}. ${example}`,
      { field: 'approval.mcp' },
    )
  }
  const named = new Set(tools)
  return {
    ruleFor(tool) {
      if (named.has(tool.name)) return true
      const own = ownRule(tool)
      if (own !== undefined) return own
      if (mcp === 'destructive' && tool.source === 'mcp' && isDestructive(tool)) return true
      return undefined
    },
  }
}

function ownRule(tool: Tool): NeedsApproval | undefined {
  const rule = tool.needsApproval
  return rule === true || typeof rule === 'function' ? rule : undefined
}

function isDestructive(tool: Tool): boolean {
  const hints = tool.annotations
  return hints?.destructiveHint === true && hints.readOnlyHint !== true
}
