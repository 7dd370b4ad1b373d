import type { Tool } from '../tool/types.js'

/** The state of one MCP server. */
export type McpServerStatus = 'connected' | 'failed' | 'disabled'

/** One MCP server's state with the detail behind it. */
export interface McpServerInfo {
  status: McpServerStatus
  /** Why the server failed or is disabled; never contains a secret. */
  reason?: string
  /** The exposed names of the tools it contributes. */
  tools: string[]
  /** How the server is (or was last) spoken to, once it connected: a process, streamable HTTP or SSE. */
  transport?: 'stdio' | 'streamable-http' | 'sse'
}

/** What the MCP source hands the toolkit: its tools, each server's state, and how to shut it down. */
export interface McpSource {
  tools: Tool[]
  /** Every configured secret of every server (env and header values, expanded variables). */
  secrets: readonly string[]
  servers(): Record<string, McpServerInfo>
  close(): Promise<void>
}
