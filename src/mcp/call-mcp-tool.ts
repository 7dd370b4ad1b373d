import type { Client, CompatibilityCallToolResult, Tool as McpTool } from '@modelcontextprotocol/client'
import {
  LOG_LEVEL_META_KEY,
  ProtocolError,
  TRACEPARENT_META_KEY,
  TRACESTATE_META_KEY,
} from '@modelcontextprotocol/client'
import { activeTraceContext } from '../shared/trace-context.js'
import type { JSONSchema, ToolContext, ToolResult } from '../tool/types.js'
import { checkStructuredContent } from './check-structured-content.js'
import { mapCallToolResult } from './map-call-tool-result.js'
import {
  encodeParamText,
  MAX_PARAM_HEADER_BYTES,
  paramHeaders,
  paramText,
  valueAt,
} from './mcp-param-headers.js'
import type { ServerToolList } from './server-tool-list.js'
import type { Session } from './session.js'
import { awaitTask, taskOf } from './task-calls.js'

const DEFAULT_CALL_TIMEOUT_MS = 60_000
// The JSON-RPC error of a request whose headers disagree with its body.
const HEADER_MISMATCH = -32020

type CallToolAnswer = CompatibilityCallToolResult

/**
 * Sends one `tools/call` on a session's client, within the call's timeout (one minute when it names none).
 * A call the server answers with a task is polled to its result within the same timeout. Given the tool's
 * `definition` (a tool whose parameters go into `Mcp-Param-*` headers), the SDK's `callTool` sends it and
 * mirrors those parameters; the definition carries no output schema, which the connection checks itself.
 */
export async function requestToolCall(options: {
  client: Client
  tool: string
  args: Record<string, unknown>
  context: ToolContext
  signal: AbortSignal | undefined
  definition?: McpTool | undefined
  relist?: (() => Promise<McpTool | undefined>) | undefined
}): Promise<CallToolAnswer> {
  const { client, tool, args, context, signal, definition, relist } = options
  const timeoutMs = context.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS
  const deadline = Date.now() + timeoutMs
  const params = { name: tool, arguments: args, ...withMeta(context) }
  const sending = (timeout: number) => ({
    timeout,
    ...(signal && { signal }),
    // A progress token is asked for only when the caller listens.
    ...(context.onProgress !== undefined && { onprogress: reportProgress(context.onProgress) }),
  })
  // `request`, not `callTool`, for every other tool: the SDK would check results against the output
  // schemas it cached, and the connection checks them itself, for every tool.
  const send = async (toolDefinition: McpTool | undefined, timeout: number): Promise<CallToolAnswer> =>
    toolDefinition === undefined
      ? await client.request({ method: 'tools/call', params }, sending(timeout))
      : ((await client.callTool(params, { ...sending(timeout), toolDefinition })) as CallToolAnswer)
  let answer: CallToolAnswer
  try {
    answer = await send(definition, timeoutMs)
  } catch (error) {
    // The server checks the headers against its tool's schema as it is now: when they disagree, the tool
    // may have changed since it was listed. It is listed again, and the call sent once more if it fits.
    if (relist === undefined || !(error instanceof ProtocolError && error.code === HEADER_MISMATCH))
      throw error
    const fresh = await relist()
    if (fresh === undefined || paramHeaderProblem(fresh, args) !== undefined) throw error
    answer = await send(fresh, Math.max(1, deadline - Date.now()))
  }
  const task = taskOf(answer)
  if (task === undefined) return answer
  return (await awaitTask(client, task, { deadline, signal })) as CallToolAnswer
}

/**
 * Why a call cannot go out with its parameters in `Mcp-Param-*` headers: a value a header cannot carry
 * (an object, a fraction, an integer past 2^53), or one over 4,096 bytes once encoded. `undefined` when
 * every parameter the tool's schema marks fits (an absent or null one is left out).
 */
function paramHeaderProblem(definition: McpTool, args: Record<string, unknown>): string | undefined {
  for (const param of paramHeaders(definition.inputSchema)) {
    const value = valueAt(args, param.path)
    if (value === undefined || value === null) continue
    const where = `argument "${param.path.join('.')}" (sent in the Mcp-Param-${param.header} header)`
    const text = paramText(value)
    if (text === undefined) {
      return `${where} is ${describeValue(value)}, which a header cannot carry: send a string, an integer within ±2^53 or a boolean`
    }
    const bytes = encodeParamText(text).length
    if (bytes > MAX_PARAM_HEADER_BYTES) {
      return `${where} is ${bytes.toLocaleString('en-US')} bytes once encoded, over the ${MAX_PARAM_HEADER_BYTES.toLocaleString('en-US')}-byte limit of a header value`
    }
  }
  return undefined
}

/**
 * How a call goes out: a 2026-07-28 request over HTTP carries the parameters its tool marks in headers,
 * so it is sent with the tool's `definition`, or refused unsent (`problem`) when one cannot go in a header;
 * `relist` lists the tools again (`list`) for a call whose headers the server finds out of date. Elsewhere
 * (stdio, the 2025 revisions) there are no such headers.
 */
export function headerCall(options: {
  session: Session
  tools: ServerToolList
  tool: string
  args: Record<string, unknown>
  list: () => Promise<McpTool[]>
}): { definition?: McpTool; problem?: string; relist?: () => Promise<McpTool | undefined> } {
  const { session, tools, tool, args, list } = options
  if (session.kind === 'stdio' || session.client.getProtocolEra() !== 'modern') return {}
  const relist = async (): Promise<McpTool | undefined> => {
    tools.publish(await list(), true)
    return tools.headerDefinition(tool)
  }
  const definition = tools.headerDefinition(tool)
  if (definition === undefined) return { relist }
  const problem = paramHeaderProblem(definition, args)
  return problem === undefined ? { definition, relist } : { problem }
}

function describeValue(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer past 2^53' : 'not an integer'
  return Array.isArray(value) ? 'an array' : `of type ${typeof value}`
}

/** A server's answer to a call as a tool result, its `structuredContent` checked against the output schema. */
export function toolCallResult(
  answer: CallToolAnswer,
  options: { origin: { server: string; tool: string }; outputSchema: JSONSchema | undefined },
): ToolResult {
  const { origin, outputSchema } = options
  const mapped = mapCallToolResult(answer, origin)
  return mapped.isError || outputSchema === undefined || 'toolResult' in answer
    ? mapped
    : checkStructuredContent(mapped, answer.structuredContent, outputSchema, origin)
}

/** The server's progress notifications, as the numbers and message they carry. */
function reportProgress(onProgress: NonNullable<ToolContext['onProgress']>) {
  return (progress: { progress: number; total?: number | undefined; message?: string | undefined }): void => {
    const report: Parameters<typeof onProgress>[0] = { progress: progress.progress }
    if (typeof progress.total === 'number') report.total = progress.total
    if (typeof progress.message === 'string') report.message = progress.message
    onProgress(report)
  }
}

/**
 * The call's `_meta`: its idempotency key (so that the server can recognise a second attempt of it) and
 * the trace context of the span it runs in (so that the server's spans join the host's trace).
 */
function withMeta(context: ToolContext): { _meta?: Record<string, string> } {
  const meta: Record<string, string> = {}
  if (context.idempotencyKey !== undefined) meta.idempotencyKey = context.idempotencyKey
  // A caller that takes the call's log messages gets them all (a 2026-07-28 server sends none unasked);
  // it filters them itself.
  if (context.onLog !== undefined) meta[LOG_LEVEL_META_KEY] = 'debug'
  const trace = activeTraceContext()
  if (trace !== undefined) {
    meta[TRACEPARENT_META_KEY] = trace.traceparent
    if (trace.tracestate !== undefined) meta[TRACESTATE_META_KEY] = trace.tracestate
  }
  return Object.keys(meta).length === 0 ? {} : { _meta: meta }
}
