// PLACEHOLDER — the MCP helper replaces this file (§5).
import type { Logger } from '../toolkit/logger.js'
import type { McpSource } from '../toolkit/sources.js'
import type { McpConfig } from './mcp-config.js'

export async function loadMcpSource(
  _config: string | McpConfig,
  _options: { logger: Logger },
): Promise<McpSource> {
  throw new Error('MCP source: not built yet')
}
