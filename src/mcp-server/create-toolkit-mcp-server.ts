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
import { SearchSession } from '../search/search-session.js'
import { capText } from '../shared/cap-text.js'
import { isRecord } from '../shared/is-record.js'
import { errorResult, toJsonText } from '../tool/tool-result.js'
import type { Tool, ToolContext, ToolResult } from '../tool/types.js'
import type { Toolkit } from '../toolkit/toolkit.js'
import { mayNeedApproval } from '../toolkit/toolkit-approvals.js'
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
  /**
   * Serve the toolkit's always-loaded tools (its `search.alwaysLoaded`) and `search_tools` instead of
   * every tool: the tools a client's search finds join its session's `tools/list` (announced with
   * `notifications/tools/list_changed`); every tool stays callable by name. @default false
   */
  search?: boolean
}

type ListedTool = ListToolsResult['tools'][number]
type ContentBlock = CallToolResult['content'][number]

// The arguments shown in an approval question are the client's own, but a person reads them: keep it short.
const MAX_QUESTION_ARGS_CHARS = 2000

/**
 * One MCP server (the SDK's `Server`) over a toolkit: `tools/list` lists every tool with its schema and
 * annotations, `tools/call` runs it through `toolkit.execute` (validation, timeout, caps) and answers with
 * its output, images and audio, and `isError` when it failed. An unknown tool is a JSON-RPC error, as the
 * protocol asks. A call that needs approval is asked of the client's user through elicitation when the
 * client supports it and `canAsk` (a stateless server cannot: nothing carries the answer back); otherwise
 * it is refused with an error result. Unless `servesApprovals`, a tool that may need approval is neither
 * listed nor called.
 *
 * @example
 * const server = createToolkitMcpServer(toolkit, { canAsk: true, servesApprovals: true })
 * await server.connect(transport)
 */
export function createToolkitMcpServer(
  toolkit: Toolkit,
  options: McpServeOptions & { canAsk: boolean; servesApprovals: boolean },
): Server {
  // A tool that needs approval is served only to callers the host authorized: an approval asked of an
  // unknown caller would be answered by that caller.
  const served = (tool: Tool): boolean => options.servesApprovals || !mayNeedApproval(toolkit, tool)
  const server = new Server(
    { name: options.name ?? 'toolnexus', version: options.version ?? VERSION },
    {
      capabilities: { tools: options.search === true ? { listChanged: true } : {} },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      // Schemas are checked with @cfworker/json-schema, which generates no code: edge runtimes forbid it.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  )
  // One search state per server, so per client session: what a client found is listed for it alone.
  const search =
    options.search === true
      ? new SearchSession({ toolkit, search: toolkit.searchOptions ?? {}, native: false })
      : undefined
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: (search?.tools() ?? toolkit.tools()).filter(served).map(listedTool),
  }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: given } = request.params
    const searched = search?.answer(name, isRecord(given) ? given : {})
    if (searched !== undefined && search !== undefined) {
      const before = search.tools()
      const result = await searched
      if (search.tools() !== before) await server.sendToolListChanged().catch(() => {})
      return callToolResult(result)
    }
    const tool = toolkit.get(name)
    if (tool === undefined || !served(tool)) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}".`)
    }
    const args = isRecord(given) ? given : {}
    const toolCallId = String(extra.requestId)
    if (await toolkit.needsApproval(name, args, toolCallId)) {
      const refusal = await askApproval({ server, name, args, canAsk: options.canAsk, signal: extra.signal })
      if (refusal !== undefined) return callToolResult(errorResult(refusal))
    }
    const context: ToolContext = { toolCallId, signal: extra.signal }
    return callToolResult(await toolkit.execute(name, args, context))
  })
  return server
}

/**
 * Asks the client's user whether the call may run (a form with one yes/no field). `undefined` when
 * approved, else why not, as the text of the error result.
 */
async function askApproval(options: {
  server: Server
  name: string
  args: Record<string, unknown>
  canAsk: boolean
  signal: AbortSignal
}): Promise<string | undefined> {
  const { server, name, args, canAsk, signal } = options
  const elicitation = server.getClientCapabilities()?.elicitation
  // `elicitation: {}` is form mode; a client that lists modes must list `form`.
  const asksForms = isRecord(elicitation) && (Object.keys(elicitation).length === 0 || 'form' in elicitation)
  if (!canAsk || !asksForms) {
    return `Tool "${name}" needs a person's approval before it runs, and this MCP ${canAsk ? 'client cannot ask for it (it does not support elicitation)' : 'server is stateless, so it cannot ask for it'}. The call was not run.`
  }
  let answer: Awaited<ReturnType<Server['elicitInput']>>
  try {
    answer = await server.elicitInput(
      {
        mode: 'form',
        message: `Allow the tool "${name}" to run with these arguments?\n${capText(toJsonText(args), MAX_QUESTION_ARGS_CHARS)}`,
        requestedSchema: {
          type: 'object',
          properties: {
            approve: { type: 'boolean', title: 'Approve', description: `Run "${name}" now.` },
          },
          required: ['approve'],
        },
      },
      { signal },
    )
  } catch (error) {
    return `Tool "${name}" needs a person's approval, and asking for it failed (${error instanceof Error ? error.message : 'no answer'}). The call was not run.`
  }
  if (answer.action === 'accept' && answer.content?.approve === true) return undefined
  const how =
    answer.action === 'accept' ? 'not approved' : answer.action === 'decline' ? 'declined' : 'cancelled'
  return `The call of tool "${name}" was ${how} by the user. It was not run.`
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
