import { attachSchemaLogger } from '../adapters/warn-about-schema.js'
import { ToolDefinitionError } from '../errors.js'
import type { McpSource } from '../mcp/mcp-source.js'
import { didYouMean, listNames } from '../shared/did-you-mean.js'
import type { Logger } from '../shared/logger.js'
import { findSchemaProblem } from '../tool/find-schema-problem.js'
import { geminiToolName, TOOL_NAME_PATTERN } from '../tool/names.js'
import type { NeedsApproval, Tool } from '../tool/types.js'
import type { ApprovalRules } from './approval-policy.js'

/** What a toolkit's list is assembled from. */
export interface ToolSources {
  /** Where a tool came from (`tools[2]`, `http[0]`, `register()`), for warnings; MCP tools are named by server. */
  origins: WeakMap<Tool, string>
  approval: ApprovalRules
  logger: Logger
  mcp: McpSource | undefined
  /** Every tool but the MCP ones (which the MCP source keeps), in assembly order. */
  tools: Tool[]
  disabled: Set<string>
}

/** A toolkit's list as assembled: by name, in order, with the Gemini names and the approval rules. */
export interface AssembledTools {
  byName: Map<string, Tool>
  /**
   * The names tools are declared under for Gemini where they differ (`_1password_get_item`): a model's
   * call under one runs the tool.
   */
  geminiNames: Map<string, string>
  /** Only tools that may need approval: for the rest an approval check is one lookup. */
  approvals: Map<string, NeedsApproval>
  list: readonly Tool[]
}

/**
 * Assembles the list (MCP first, then the rest in order); the first owner of a name keeps it. A schema no
 * validator can live with leaves its tool out; every such decision is said through `warn`.
 *
 * @example
 * const { byName, list } = assembleTools(sources, (message) => logger.warn(message))
 */
export function assembleTools(sources: ToolSources, warn: (message: string) => void): AssembledTools {
  const byName = new Map<string, Tool>()
  const approvals = new Map<string, NeedsApproval>()
  for (const tool of [...(sources.mcp?.tools() ?? []), ...sources.tools]) {
    if (sources.disabled.has(tool.name)) continue
    // A schema from elsewhere (an MCP server, a custom Tool) that no validator can live with is left out;
    // a pattern the linear-time engine cannot evaluate is left unchecked. Either way, with a warning.
    const problem = findSchemaProblem(tool.inputSchema)
    if (problem !== undefined && problem.kind !== 'pattern') {
      warn(`Tool "${tool.name}" (${tool.source}) was left out: its inputSchema ${problem.message}.`)
      continue
    }
    if (problem !== undefined) {
      warn(
        `Tool "${tool.name}" (${tool.source}): its inputSchema ${problem.message}; that pattern is not checked.`,
      )
    }
    const first = byName.get(tool.name)
    if (first !== undefined) {
      warn(
        `Duplicate tool name "${tool.name}": kept the ${describe(sources, first)}, dropped the ${describe(sources, tool)}.`,
      )
      continue
    }
    byName.set(tool.name, tool)
    // A schema simplified while converting it (too large to lower in full) is reported here.
    attachSchemaLogger(tool.inputSchema, sources.logger)
    const rule = sources.approval.ruleFor(tool)
    if (rule !== undefined) approvals.set(tool.name, rule)
  }
  const geminiNames = new Map<string, string>()
  for (const name of byName.keys()) {
    const sentAs = geminiToolName(name)
    if (sentAs !== name && !byName.has(sentAs)) geminiNames.set(sentAs, name)
  }
  return { byName, geminiNames, approvals, list: [...byName.values()] }
}

/** `native tool tools[2]`, `mcp tool of MCP server "github"`: which of two same-named tools is meant. */
function describe(sources: ToolSources, tool: Tool): string {
  if (tool.source === 'mcp') {
    const servers = Object.entries(sources.mcp?.servers() ?? {})
    const server = servers.find(([, info]) => info.tools.includes(tool.name))?.[0]
    if (server !== undefined) return `mcp tool of MCP server ${JSON.stringify(server)}`
  }
  const origin = sources.origins.get(tool)
  return origin === undefined ? `${tool.source} tool` : `${tool.source} tool ${origin}`
}

/**
 * A `disableTools` name no tool has is most likely a typo: said through `warn`, with the closest real name.
 *
 * @example
 * checkDisabledNames(sources, (message) => logger.warn(message))
 */
export function checkDisabledNames(sources: ToolSources, warn: (message: string) => void): void {
  if (sources.disabled.size === 0) return
  const names = new Set([...(sources.mcp?.tools() ?? []), ...sources.tools].map((tool) => tool.name))
  for (const name of sources.disabled) {
    if (names.has(name)) continue
    const guess = didYouMean(name, names)
    const hint =
      guess === undefined
        ? ` The tools are ${listNames([...names])}.`
        : ` Did you mean ${JSON.stringify(guess)}?`
    warn(`disableTools names ${JSON.stringify(name)}, which no tool has.${hint}`)
  }
}

/**
 * Refuses a tool whose name no provider takes.
 *
 * @example
 * checkToolName(tool) // throws a ToolDefinitionError for 'get weather'
 */
export function checkToolName(tool: Tool): void {
  if (typeof tool?.name !== 'string' || !TOOL_NAME_PATTERN.test(tool.name)) {
    throw new ToolDefinitionError(
      `Tool name ${JSON.stringify(tool?.name)} is not allowed: use 1–64 characters from [a-zA-Z0-9_-].`,
    )
  }
}
