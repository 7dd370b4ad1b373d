import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js'
import { isRecord } from '../shared/is-record.js'
import type { Logger } from '../shared/logger.js'
import { joinToolName } from '../tool/names.js'
import { errorMessage } from '../tool/tool-result.js'
import type { JSONSchema, Tool } from '../tool/types.js'
import type { McpConfig } from './mcp-config.js'
import { McpServerConnection } from './mcp-server-connection.js'
import type { McpServerInfo, McpSource } from './mcp-source.js'
import { type McpServerPlan, readMcpConfig, type ToolFilter } from './parse-mcp-config.js'

/** What a server of the config amounts to once loading is over. */
type LoadedServer =
  | { kind: 'skipped'; name: string; info: McpServerInfo }
  | { kind: 'connection'; name: string; connection: McpServerConnection; tools: Tool[] }

/**
 * Loads every server of an `mcp.json` (a path, relative to the working directory, or the parsed object):
 * connects them in parallel, lists their tools and exposes each as `<server>_<tool>`. A server that is
 * disabled, misconfigured or fails to start is reported by `servers()` and a warning; the others load.
 * Throws a `ConfigError` only when the config as a whole cannot be read.
 *
 * @example
 * const source = await loadMcpSource('./mcp.json', { logger: console })
 * source.tools.map((tool) => tool.name) // ['everything_echo', …]
 * source.servers()                      // { everything: { status: 'connected', tools: [...] } }
 * await source.close()
 */
export async function loadMcpSource(
  config: string | McpConfig,
  options: { logger: Logger },
): Promise<McpSource> {
  const { logger } = options
  const parsed = await readMcpConfig(config)
  for (const warning of parsed.warnings) logger.warn(warning)
  const servers = await Promise.all(parsed.servers.map((plan) => loadServer(plan, logger)))
  const connections = servers.flatMap((server) => (server.kind === 'connection' ? [server.connection] : []))
  let closing: Promise<void> | undefined
  return {
    tools: servers.flatMap((server) => (server.kind === 'connection' ? server.tools : [])),
    secrets: parsed.servers.flatMap((plan) => ('secrets' in plan ? plan.secrets : [])),
    servers: () => Object.fromEntries(servers.map((server) => [server.name, infoOf(server)])),
    close() {
      closing ??= Promise.all(connections.map((connection) => connection.close())).then(() => undefined)
      return closing
    },
  }
}

async function loadServer(plan: McpServerPlan, logger: Logger): Promise<LoadedServer> {
  switch (plan.kind) {
    case 'disabled':
      return {
        kind: 'skipped',
        name: plan.name,
        info: { status: 'disabled', reason: plan.reason, tools: [] },
      }
    case 'invalid':
      logger.warn(`MCP server "${plan.name}" was not started: ${plan.reason}.`)
      return { kind: 'skipped', name: plan.name, info: { status: 'failed', reason: plan.reason, tools: [] } }
    case 'stdio':
    case 'remote': {
      const connection = new McpServerConnection(plan)
      let listed: McpTool[]
      try {
        listed = await connection.open()
      } catch (error) {
        logger.warn(`MCP server "${plan.name}" failed: ${errorMessage(error)}`)
        return { kind: 'connection', name: plan.name, connection, tools: [] }
      }
      return {
        kind: 'connection',
        name: plan.name,
        connection,
        tools: toTools(connection, listed, plan.tools, logger),
      }
    }
    default:
      return plan satisfies never
  }
}

function toTools(
  connection: McpServerConnection,
  listed: readonly McpTool[],
  filter: ToolFilter,
  logger: Logger,
): Tool[] {
  const server = connection.name
  const offered = new Set(listed.map((tool) => tool.name))
  for (const name of [...(filter.allow ?? []), ...filter.drop]) {
    if (!offered.has(name))
      logger.warn(`MCP server "${server}" has no tool "${name}" (named in its "tools").`)
  }
  const byExposedName = new Map<string, string>()
  const tools: Tool[] = []
  for (const tool of listed) {
    if (filter.drop.has(tool.name) || (filter.allow !== undefined && !filter.allow.has(tool.name))) continue
    const name = joinToolName([server, tool.name])
    const first = byExposedName.get(name)
    if (first !== undefined) {
      logger.warn(
        `MCP server "${server}": tools "${first}" and "${tool.name}" are both exposed as "${name}"; kept "${first}".`,
      )
      continue
    }
    byExposedName.set(name, tool.name)
    tools.push({
      name,
      description: tool.description ?? tool.title ?? '',
      inputSchema: objectRootSchema(tool.inputSchema),
      source: 'mcp',
      // Kept for the toolkit's approval policy (`approval: { mcp: 'destructive' }`).
      ...(isRecord(tool.annotations) && { annotations: { ...tool.annotations } }),
      // The server knows the tool by its own name, not the exposed one.
      execute: (args, context) => connection.call(tool.name, args, context),
    })
  }
  return tools
}

/** The server's input schema with the object root every provider expects (and `properties`, which OpenAI wants). */
function objectRootSchema(schema: McpTool['inputSchema'] | undefined): JSONSchema {
  const copy: JSONSchema = { ...(schema ?? {}) }
  copy.type = 'object'
  copy.properties ??= {}
  return copy
}

function infoOf(server: LoadedServer): McpServerInfo {
  if (server.kind === 'skipped') return server.info
  const tools = server.tools.map((tool) => tool.name)
  const state = server.connection.state
  switch (state.status) {
    case 'connected':
      return { status: 'connected', tools, transport: state.transport }
    case 'failed':
      return {
        status: 'failed',
        reason: state.reason,
        tools,
        ...(state.transport !== undefined && { transport: state.transport }),
      }
    case 'connecting':
      return { status: 'failed', reason: 'still connecting', tools }
    case 'closed':
      return { status: 'failed', reason: 'closed', tools }
    default:
      return state satisfies never
  }
}
