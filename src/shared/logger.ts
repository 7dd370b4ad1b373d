/**
 * Where toolnexus writes what it notices. `warn`: something is wrong but nothing stops (a duplicate tool
 * name, a skipped skill, a failed MCP server). `info`: what a toolkit loaded (`connected github: 12 tools in
 * 410 ms`). `debug`: the details (how the tool list was assembled). `info` and `debug` are optional, so a
 * logger with only `warn` hears warnings only; pass `console` to see everything. Nothing it writes ever
 * contains a secret.
 *
 * @default a logger that writes warnings to `console.warn`, prefixed `[toolnexus]`
 * @example
 * await createToolkit({ mcpConfig: './mcp.json', logger: console }) // warnings, info and debug lines
 * const warnings: string[] = []
 * await createToolkit({ logger: { warn: (message) => warnings.push(message) } })
 */
export interface Logger {
  warn(message: string): void
  info?(message: string): void
  debug?(message: string): void
}

/** The default logger: warnings only, to `console.warn`, prefixed so the line says where it came from. */
export const consoleLogger: Logger = {
  warn: (message) => console.warn(`[toolnexus] ${message}`),
}
