// `toolnexus/mcp-server`: any toolkit served as one MCP server. Every name exported here is public API.

export {
  createMcpHandler,
  type McpHandler,
  type McpHandlerConfig,
  type McpHandlerOptions,
} from './create-mcp-handler.js'
export type { McpServeOptions } from './create-toolkit-mcp-server.js'
export {
  createMemoryEventStore,
  type McpEventStore,
  type MemoryEventStoreOptions,
} from './event-store.js'
export { type StdioMcpServer, type StdioServeConfig, serveStdio } from './serve-stdio.js'
