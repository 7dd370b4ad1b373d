// How a call to a tool whose parameters go into `Mcp-Param-*` headers is sent: with its definition, or
// refused before anything is sent when a value cannot go in a header.

import type { Tool as McpTool } from '@modelcontextprotocol/client'
import {
  encodeParamText,
  MAX_PARAM_HEADER_BYTES,
  paramHeaders,
  paramText,
  valueAt,
} from './mcp-param-headers.js'
import type { ServerToolList } from './server-tool-list.js'
import type { Session } from './session.js'

/**
 * Why a call cannot go out with its parameters in `Mcp-Param-*` headers: a value a header cannot carry
 * (an object, a fraction, an integer past 2^53), or one over 4,096 bytes once encoded. `undefined` when
 * every parameter the tool's schema marks fits (an absent or null one is left out).
 */
export function paramHeaderProblem(definition: McpTool, args: Record<string, unknown>): string | undefined {
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

// A call with no parameters in headers: the same object for every such call.
const NO_HEADERS: HeaderCall = Object.freeze({})

/** How a call goes out: see {@link headerCall}. */
export interface HeaderCall {
  /** The tool's definition, for the SDK to put its marked parameters in headers. */
  definition?: McpTool
  /** Why the call cannot go out with its parameters in headers: it is refused unsent. */
  problem?: string
  /** Lists the tools again, for a call whose headers the server finds out of date. */
  relist?: () => Promise<McpTool | undefined>
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
}): HeaderCall {
  const { session, tools, tool, args, list } = options
  if (session.kind === 'stdio' || session.client.getProtocolEra() !== 'modern') return NO_HEADERS
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
