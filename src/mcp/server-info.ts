import type { Tool } from '../tool/types.js'
import type { McpServerConnection } from './mcp-server-connection.js'
import type { McpServerInfo } from './mcp-source.js'

/**
 * One configured server's state for `mcpServers()`: skipped with its reason, or its connection's state,
 * the exposed names of its tools, its transport, and whether it offers resource subscriptions.
 *
 * @example
 * const info = infoOf({ kind: 'connection', connection, tools })
 */
export function infoOf(
  server:
    | { kind: 'skipped'; info: McpServerInfo }
    | { kind: 'connection'; connection: McpServerConnection; tools: readonly Tool[] },
): McpServerInfo {
  if (server.kind === 'skipped') return server.info
  const tools = server.tools.map((tool) => tool.name)
  const state = server.connection.state
  const subscriptions = server.connection.capabilities?.resources?.subscribe === true
  const extra = subscriptions ? { resourceSubscriptions: true } : {}
  switch (state.status) {
    case 'connected':
      return { status: 'connected', tools, transport: state.transport, ...extra }
    case 'failed':
      return {
        status: 'failed',
        reason: state.reason,
        tools,
        ...(state.transport !== undefined && { transport: state.transport }),
        ...extra,
      }
    case 'connecting':
      return { status: 'failed', reason: 'still connecting', tools }
    case 'closed':
      return { status: 'failed', reason: 'closed', tools }
    default:
      return state satisfies never
  }
}
