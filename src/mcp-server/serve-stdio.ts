import { ConfigError } from '../errors.js'
import type { Toolkit } from '../toolkit/toolkit.js'
import { createToolkitMcpServer, type McpServeOptions } from './create-toolkit-mcp-server.js'

/** A toolkit being served over standard input and output. */
export interface StdioMcpServer {
  /** Stops serving (the toolkit stays open: close it yourself). */
  close(): Promise<void>
}

/**
 * Serves a toolkit as an MCP server over this process's standard input and output, the way Claude
 * Desktop, Cursor and other MCP clients start local servers. Standard output then belongs to the
 * protocol: log to standard error.
 *
 * @example
 * // gateway.ts — started by an MCP client as `node gateway.js`
 * import { serveStdio } from 'toolnexus/mcp-server'
 * const toolkit = await createToolkit({ mcpConfig: './mcp.json', skillsDir: './skills' })
 * await serveStdio(toolkit, { name: 'my-gateway' })
 */
export async function serveStdio(toolkit: Toolkit, options: McpServeOptions = {}): Promise<StdioMcpServer> {
  if (typeof toolkit?.tools !== 'function' || typeof toolkit.execute !== 'function') {
    throw new ConfigError('serveStdio needs a Toolkit from createToolkit(...).')
  }
  // Loaded here: the stdio transport needs Node's process streams, which the HTTP handler must not.
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js')
  // The client started this process and owns its pipes: it is the caller the tools are served to.
  const server = createToolkitMcpServer(toolkit, { ...options, canAsk: true, servesApprovals: true })
  await server.connect(new StdioServerTransport())
  return { close: () => server.close() }
}
