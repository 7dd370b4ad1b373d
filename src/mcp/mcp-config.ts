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
  /** `local`/`stdio` or `remote`/`http`/`streamable-http`/`sse`; inferred from `url` or `command` when absent. */
  type?: 'local' | 'stdio' | 'remote' | 'http' | 'streamable-http' | 'sse'
  /** The program to start (a string with `args`, or the whole command line as an array). */
  command?: string | string[]
  args?: string[]
  /** Extra environment for a local server; values expand `${VAR}`. */
  env?: Record<string, string>
  /** opencode's name for `env`. */
  environment?: Record<string, string>
  /** The working directory of a local server, relative to the config file. */
  cwd?: string
  /** A remote server's endpoint. */
  url?: string
  /** Headers sent to a remote server; values expand `${VAR}`. */
  headers?: Record<string, string>
  /** `false` skips the server (status `disabled`). */
  enabled?: boolean
  /** `true` skips the server (status `disabled`). */
  disabled?: boolean
  /** Milliseconds each phase (connect, initialize, list) may take. @default 30000 */
  timeout?: number
  /** Allow (`true`) or drop (`false`) tools by the server's own names. With any `true`, only those load. */
  tools?: Record<string, boolean>
}

/** A whole `mcp.json`: servers under `mcpServers`, `servers` or `mcp`. */
export interface McpConfig {
  mcpServers?: Record<string, McpServerConfig>
  servers?: Record<string, McpServerConfig>
  mcp?: Record<string, McpServerConfig>
}
