/**
 * Where toolnexus writes warnings (a duplicate tool name, a skipped skill, a failed MCP server).
 * Nothing it writes ever contains a secret.
 *
 * @default console
 * @example
 * const warnings: string[] = []
 * await createToolkit({ logger: { warn: (message) => warnings.push(message) } })
 */
export interface Logger {
  warn(message: string): void
}

/** The default logger: `console.warn`, prefixed so the line says where it came from. */
export const consoleLogger: Logger = {
  warn: (message) => console.warn(`[toolnexus] ${message}`),
}
