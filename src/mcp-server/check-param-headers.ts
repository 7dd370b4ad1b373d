import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  isJsonContentType,
  readRequestBody,
} from '@modelcontextprotocol/server'
import {
  decodeParamText,
  MAX_PARAM_HEADER_BYTES,
  paramHeaders,
  paramText,
  valueAt,
} from '../mcp/mcp-param-headers.js'
import { isRecord } from '../shared/is-record.js'

/** The JSON-RPC error of a request whose headers are missing or disagree with its body (HTTP 400). */
const HEADER_MISMATCH = -32020
const PARSE_ERROR = -32700
const DECIMAL = /^-?\d+(?:\.\d+)?$/

/** A request's JSON body, read once: `parsed` is absent where there is none to read (a GET, another type). */
export interface ReadBody {
  parsed?: unknown
}

/**
 * Reads a POST's JSON body once, bounded (4 MiB, as the SDK's entry bounds it; a declared length over it is
 * refused unread), so that the checks before serving and the SDK see the same message. A body over the
 * bound answers 413, one that is not JSON 400; a request that is not a JSON POST is left unread.
 *
 * @example
 * const body = await readJsonBody(request)
 * if (body instanceof Response) return body
 */
export async function readJsonBody(request: Request): Promise<ReadBody | Response> {
  if (request.method !== 'POST' || !isJsonContentType(request.headers.get('content-type'))) return {}
  let text: string
  try {
    const read = await readRequestBody(request, DEFAULT_MAX_REQUEST_BODY_SIZE)
    if (read.tooLarge) {
      return jsonRpcError(
        413,
        -32000,
        `Payload Too Large: the body is over ${DEFAULT_MAX_REQUEST_BODY_SIZE} bytes.`,
      )
    }
    text = read.text
  } catch {
    return jsonRpcError(400, PARSE_ERROR, 'Parse error: the request body could not be read.')
  }
  try {
    return { parsed: JSON.parse(text) as unknown }
  } catch {
    return jsonRpcError(400, PARSE_ERROR, 'Parse error: the request body is not valid JSON.')
  }
}

/**
 * Whether a message is a `tools/call` request, the only one whose parameters go into headers.
 *
 * @example
 * isToolCall({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'lookup' } }) // true
 */
export function isToolCall(message: unknown): boolean {
  return isRecord(message) && message.method === 'tools/call' && isRecord(message.params)
}

/**
 * Checks a 2026-07-28 `tools/call` against the `x-mcp-header` parameters of the served tool it names: for
 * each such argument the call gives (not null), its `Mcp-Param-<name>` header must be there, at most
 * 4,096 bytes, a valid header value (plain visible ASCII, or `=?base64?…?=` of UTF-8), and equal to the
 * argument once decoded (integers compared as numbers). Answers the refusal, HTTP 400 with JSON-RPC error
 * -32020, which names the header and the argument but never repeats a value sent; `undefined` when the
 * headers agree, or when the tool has no such parameters or is not served (`inputSchemaOf` gives nothing).
 *
 * @example
 * const refused = checkParamHeaders({ message, headers: request.headers, inputSchemaOf: (name) => toolkit.get(name)?.inputSchema })
 * if (refused !== undefined) return refused
 */
export function checkParamHeaders(options: {
  message: unknown
  headers: Headers
  inputSchemaOf: (tool: string) => unknown
}): Response | undefined {
  const { message, headers } = options
  if (!isRecord(message) || !isToolCall(message)) return undefined
  const params = message.params as Record<string, unknown>
  if (typeof params.name !== 'string') return undefined
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null
  for (const param of paramHeaders(options.inputSchemaOf(params.name))) {
    const value = valueAt(params.arguments, param.path)
    const text = value === undefined || value === null ? undefined : paramText(value)
    // Absent and null arguments have no header; an argument a header cannot carry fails the schema check.
    if (text === undefined && typeof value !== 'number') continue
    const header = `Mcp-Param-${param.header}`
    const argument = `"${param.path.join('.')}"`
    const received = headers.get(header)
    const problem =
      received === null
        ? `the ${header} header is missing, and the arguments give ${argument}`
        : received.length > MAX_PARAM_HEADER_BYTES
          ? `the ${header} header is over ${MAX_PARAM_HEADER_BYTES.toLocaleString('en-US')} bytes`
          : agreement(decodeParamText(received), value, text, header, argument)
    if (problem !== undefined) {
      return jsonRpcError(400, HEADER_MISMATCH, `Header mismatch: ${problem}.`, id)
    }
  }
  return undefined
}

/** What is wrong with a decoded header value against its argument; `undefined` when they agree. */
function agreement(
  decoded: string | undefined,
  value: unknown,
  text: string | undefined,
  header: string,
  argument: string,
): string | undefined {
  if (decoded === undefined) {
    return `the ${header} header is not a valid value (plain visible ASCII, or =?base64?…?= of UTF-8 text)`
  }
  const same =
    typeof value === 'number' ? DECIMAL.test(decoded) && Number(decoded) === value : decoded === text
  return same ? undefined : `the ${header} header does not match the argument ${argument}`
}

function jsonRpcError(status: number, code: number, message: string, id: string | number | null = null) {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}
