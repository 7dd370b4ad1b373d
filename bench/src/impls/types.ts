/** Whether the scenario's tools are defined in process or served by the stdio MCP server. */
export type ToolVariant = 'native' | 'mcp'

/** Where an implementation finds the shared endpoint and MCP server. */
export interface ImplementationOptions {
  variant: ToolVariant
  /** The scripted OpenAI-compatible endpoint, ending in `/v1`. */
  openaiBaseUrl: string
  /** The scripted Gemini endpoint's origin. */
  geminiBaseUrl: string
  /** How to start the stdio MCP server. */
  mcpServer: { command: string; args: string[] }
}

/** One ready-to-run implementation: `run` answers the scenario's question once, end to end. */
export interface BenchInstance {
  run(): Promise<string>
  close(): Promise<void>
}

/** What each implementation module exports. `create` is what "cold init" times. */
export type CreateImplementation = (options: ImplementationOptions) => Promise<BenchInstance>
