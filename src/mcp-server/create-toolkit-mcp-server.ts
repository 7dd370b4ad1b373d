import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  type ListToolsResult,
  McpError,
} from '@modelcontextprotocol/sdk/types.js'
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker'
import { isRecord } from '../shared/is-record.js'
import type { Tool, ToolContext, ToolResult } from '../tool/types.js'
import type { Toolkit } from '../toolkit/create-toolkit.js'
import { VERSION } from '../version.js'

/**
 * What every way of serving a toolkit over MCP takes.
 *
 * @example
 * const options: McpServeOptions = { name: 'my-gateway', version: '1.2.0', instructions: 'Tools for the support team.' }
 */
export interface McpServeOptions {
  /** The server's name in the `initialize` answer. @default 'toolnexus' */
  name?: string
  /** The server's version in the `initialize` answer. @default this package's version */
  version?: string
  /** Told to the client at `initialize`: how to use these tools. */
  instructions?: string
}

type ListedTool = ListToolsResult['tools'][number]
type ContentBlock = CallToolResult['content'][number]

/**
 * One MCP server (the SDK's `Server`) over a toolkit: `tools/list` lists every tool with its schema and
 * annotations, `tools/call` runs it through `toolkit.execute` (validation, timeout, caps) and answers with
 * its output, images and audio, and `isError` when it failed. An unknown tool is a JSON-RPC error, as the
 * protocol asks.
 *
 * @example
 * const server = createToolkitMcpServer(toolkit, {})
 * await server.connect(transport)
 */
export function createToolkitMcpServer(toolkit: Toolkit, options: McpServeOptions): Server {
  const server = new Server(
    { name: options.name ?? 'toolnexus', version: options.version ?? VERSION },
    {
      capabilities: { tools: {} },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      // Schemas are checked with @cfworker/json-schema, which generates no code: edge runtimes forbid it.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolkit.tools().map(listedTool) }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: given } = request.params
    if (toolkit.get(name) === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}".`)
    }
    const context: ToolContext = { toolCallId: String(extra.requestId), signal: extra.signal }
    const result = await toolkit.execute(name, isRecord(given) ? given : {}, context)
    return callToolResult(result)
  })
  return server
}

function listedTool(tool: Tool): ListedTool {
  const listed: ListedTool = {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as ListedTool['inputSchema'],
  }
  const { annotations } = tool
  if (annotations !== undefined) {
    if (annotations.title !== undefined) listed.title = annotations.title
    listed.annotations = annotations
  }
  return listed
}

/** A toolkit's answer as MCP content: the text (when there is any), then each image or audio clip. */
function callToolResult(result: ToolResult): CallToolResult {
  const content: ContentBlock[] = []
  if (result.output !== '' || result.media === undefined || result.media.length === 0) {
    content.push({ type: 'text', text: result.output })
  }
  for (const media of result.media ?? []) {
    content.push({ type: media.type, data: media.data, mimeType: media.mediaType })
  }
  const answer: CallToolResult = { content }
  if (result.isError) answer.isError = true
  // A tool from another MCP server that answered with structured content keeps it.
  const structured = result.metadata?.structuredContent
  if (!result.isError && isRecord(structured)) answer.structuredContent = structured
  return answer
}
