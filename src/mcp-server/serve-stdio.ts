import { ConfigError } from '../errors.js'
import { isRecord } from '../shared/is-record.js'
import type { Toolkit } from '../toolkit/toolkit.js'
import { approvalCodec } from './ask-approval.js'
import { readStateClaims } from './claim-request-state.js'
import { createToolkitMcpServer, type McpServeOptions } from './create-toolkit-mcp-server.js'
import { resourceOwner } from './serve-mcp-sources.js'
import { taskStoreFor } from './serve-tasks.js'
import { servedStateCodec } from './served-state.js'
import { ServedSubscriptions, subscriptionLimits } from './served-subscriptions.js'
import { traceServedCalls } from './trace-served-call.js'

/** A toolkit being served over standard input and output. */
export interface StdioMcpServer {
  /** Stops serving (the toolkit stays open: close it yourself). */
  close(): Promise<void>
}

/**
 * What `serveStdio` takes: the toolkit to serve and how.
 *
 * @example
 * const config: StdioServeConfig = { toolkit, name: 'my-gateway' }
 */
export interface StdioServeConfig extends McpServeOptions {
  /** The toolkit whose tools are served. */
  toolkit: Toolkit
}

/**
 * Serves a toolkit as an MCP server over this process's standard input and output, the way Claude
 * Desktop, Cursor and other MCP clients start local servers. The client's first message picks the era
 * for the connection: `server/discover` or an enveloped request for 2026-07-28, `initialize` for the
 * 2025 revisions. The client started this process and owns its pipes, so it is the caller the tools are
 * served to, approvals included (asked through an input-required answer or elicitation, by era).
 * Standard output then belongs to the protocol: log to standard error.
 *
 * @example
 * // gateway.ts — started by an MCP client as `node gateway.js`
 * import { serveStdio } from 'toolnexus/mcp-server'
 * const toolkit = await createToolkit({ mcpConfig: './mcp.json', skillsDir: './skills' })
 * await serveStdio({ toolkit, name: 'my-gateway' })
 */
export async function serveStdio(config: StdioServeConfig): Promise<StdioMcpServer>
/**
 * @deprecated Pass the toolkit with the options: `serveStdio({ toolkit, ...options })`.
 *
 * @example
 * await serveStdio(toolkit, { name: 'my-gateway' })
 */
export async function serveStdio(toolkit: Toolkit, options?: McpServeOptions): Promise<StdioMcpServer>
export async function serveStdio(
  first: Toolkit | StdioServeConfig,
  second?: McpServeOptions,
): Promise<StdioMcpServer> {
  const { toolkit, ...options }: StdioServeConfig =
    isRecord(first) && 'toolkit' in first
      ? (first as StdioServeConfig)
      : { ...second, toolkit: first as Toolkit }
  if (typeof toolkit?.tools !== 'function' || typeof toolkit.execute !== 'function') {
    throw new ConfigError('serveStdio needs a Toolkit from createToolkit(...).')
  }
  // Loaded here: the stdio entry needs Node's process streams, which the HTTP handler must not.
  const { serveStdio: serveSdkStdio } = await import('@modelcontextprotocol/server/stdio')
  const claims = readStateClaims(options, 'serveStdio')
  const codec = approvalCodec(options.requestStateKey, claims)
  const forwarding = servedStateCodec(options.requestStateKey, claims)
  // One client per process: its tasks are bound to this connection.
  const tasks = { store: taskStoreFor(options), owner: () => Promise.resolve('stdio') }
  const traced = traceServedCalls(options.telemetry)
  const subscriptions = new ServedSubscriptions(toolkit, subscriptionLimits(options), (uri) =>
    resourceOwner(toolkit, uri),
  )
  const handle = serveSdkStdio(({ era }) =>
    createToolkitMcpServer(toolkit, {
      ...options,
      era,
      canAsk: true,
      servesApprovals: true,
      codec,
      forwarding,
      caller: tasks.owner,
      traced,
      subscriptions,
      ...(era === 'modern' ? { tasks } : {}),
    }),
  )
  return { close: () => handle.close() }
}
