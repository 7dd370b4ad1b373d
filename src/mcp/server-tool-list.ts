import type { Tool as McpTool } from '@modelcontextprotocol/client'
import { isRecord } from '../shared/is-record.js'
import type { JSONSchema } from '../tool/types.js'
import { paramHeaders } from './mcp-param-headers.js'

/**
 * A connection's view of its server's tools: the output schema of each tool that declares one (calls check
 * their results against it), the definition of each tool whose schema mirrors parameters into headers
 * (`x-mcp-header`), and the relisting a `notifications/tools/list_changed` starts.
 */
export class ServerToolList {
  // The output schema of each tool that declares one, by the server's tool name.
  #outputSchemas = new Map<string, JSONSchema>()
  // The definition (without its output schema) of each tool with parameters that go into headers.
  #headerTools = new Map<string, McpTool>()
  // A tools/list after a change notice, while it runs; calls wait for it before answering.
  #relisting: Promise<void> | undefined
  #relistAgain = false
  readonly #onToolsChanged: ((tools: readonly McpTool[]) => void) | undefined

  constructor(onToolsChanged: ((tools: readonly McpTool[]) => void) | undefined) {
    this.#onToolsChanged = onToolsChanged
  }

  /** The relisting in progress, if any. */
  get relisting(): Promise<void> | undefined {
    return this.#relisting
  }

  outputSchema(tool: string): JSONSchema | undefined {
    return this.#outputSchemas.get(tool)
  }

  /** The tool's definition without its output schema, when its schema puts parameters into headers. */
  headerDefinition(tool: string): McpTool | undefined {
    return this.#headerTools.get(tool)
  }

  /** Keeps what calls need from a tool list and hands it to the source (which re-exposes the tools). */
  publish(tools: readonly McpTool[], changed: boolean): void {
    const schemas = new Map<string, JSONSchema>()
    const headerTools = new Map<string, McpTool>()
    for (const tool of tools) {
      const { outputSchema, ...definition } = tool
      if (isRecord(outputSchema)) schemas.set(tool.name, outputSchema)
      if (paramHeaders(tool.inputSchema).length > 0) headerTools.set(tool.name, definition)
    }
    this.#outputSchemas = schemas
    this.#headerTools = headerTools
    if (changed) this.#onToolsChanged?.(tools)
  }

  /** Lists the tools again (once more if another change arrives meanwhile), while the session is current. */
  relist(options: {
    list: () => Promise<McpTool[]>
    isCurrent: () => boolean
    onError: (error: unknown) => void
  }): void {
    if (this.#relisting !== undefined) {
      this.#relistAgain = true
      return
    }
    this.#relisting = (async () => {
      do {
        this.#relistAgain = false
        try {
          const tools = await options.list()
          if (options.isCurrent()) this.publish(tools, true)
        } catch (error) {
          options.onError(error)
        }
      } while (this.#relistAgain && options.isCurrent())
    })().finally(() => {
      this.#relisting = undefined
    })
  }
}
