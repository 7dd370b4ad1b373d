/**
 * The ways a server's `type` may be spelled: `local`/`stdio` start a process; `remote`, `http` and
 * `streamable-http` speak streamable HTTP (falling back to SSE); `sse` speaks only SSE.
 *
 * @example
 * const type: McpServerType = 'stdio'
 */
export type McpServerType = 'local' | 'stdio' | 'remote' | 'http' | 'streamable-http' | 'sse'

/**
 * One server in an `mcp.json`. Both dialects are accepted: Claude Desktop (`command` + `args`, `env`)
 * and opencode (`command` as an array, `environment`).
 *
 * @example
 * const claude: McpServerConfig = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] }
 * const opencode: McpServerConfig = { type: 'local', command: ['npx', '-y', '@modelcontextprotocol/server-everything'] }
 * const remote: McpServerConfig = { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } }
 */
export interface McpServerConfig {
  /** How to reach the server; inferred when absent (`url` ⇒ remote, `command` ⇒ local). */
  type?: McpServerType
  /**
   * The program to start: a string (with `args`), or the whole command line as an array. A relative path
   * (`./server.sh`, `bin/server`) resolves against the config file's folder; a bare name is looked up on `PATH`.
   */
  command?: string | string[]
  /** Arguments after `command` (also appended after an array `command`). */
  args?: string[]
  /** Extra environment for a local server, on top of the process environment; values expand `${VAR}`. */
  env?: Record<string, string>
  /** opencode's name for `env` (both may be given; `env` wins on a clash). */
  environment?: Record<string, string>
  /** The working directory of a local server, relative to the config file's folder. @default process.cwd() */
  cwd?: string
  /** A remote server's endpoint; expands `${VAR}`. */
  url?: string
  /** Headers sent to a remote server; values expand `${VAR}`. */
  headers?: Record<string, string>
  /** `false` skips the server (status `disabled`). @default true */
  enabled?: boolean
  /** `true` skips the server (status `disabled`). @default false */
  disabled?: boolean
  /** Milliseconds each phase (connect, initialize, list) may take. @default 30000 */
  timeout?: number
  /**
   * Allow (`true`) or drop (`false`) tools by the server's own names. With any `true`, only the allowed
   * tools load; otherwise every tool not set to `false` loads.
   */
  tools?: Record<string, boolean>
}

/**
 * A whole `mcp.json`: servers under `mcpServers` (Claude Desktop, Cursor), `servers` (VS Code) or `mcp`
 * (opencode). Other top-level keys are ignored, so a whole `opencode.json` can be passed.
 *
 * @example
 * const config: McpConfig = {
 *   mcpServers: { files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } },
 * }
 */
export interface McpConfig {
  mcpServers?: Record<string, McpServerConfig>
  servers?: Record<string, McpServerConfig>
  mcp?: Record<string, McpServerConfig>
}

/**
 * Milliseconds each connection phase of a server may take when its config gives no `timeout`.
 *
 * @example
 * const server: McpServerConfig = { command: 'slow-server', timeout: 2 * DEFAULT_MCP_TIMEOUT_MS }
 */
export const DEFAULT_MCP_TIMEOUT_MS = 30_000
