import type { ToolResult } from '../tool/types.js'

/** Characters of a non-2xx response body kept in the error: enough to read the server's reason. */
const MAX_ERROR_BODY_CHARS = 2_000

/** Bytes of a response body read at most; far more than a model's context holds. */
const MAX_RESPONSE_BYTES = 1_000_000

// Content types that are text even though they do not start with `text/`.
const TEXTUAL_TYPE = /json|xml|javascript|ecmascript|yaml|csv|x-www-form-urlencoded|graphql|html|markdown/i

/**
 * A fetch `Response` as a tool result: a 2xx body as the output, anything else as `isError` with
 * `HTTP <status>: <body>` (the body cut at 2 000 characters). A binary body (an image, a PDF) is
 * described by its type and size rather than decoded into noise. At most 1 MB of a body is read; the
 * rest is cancelled and a marker says where the text was cut. `metadata` has `status` and, when the
 * server sent one, `contentType`.
 *
 * @example
 * await readHttpResponse(new Response('{"ok":true}', { status: 200 }))
 * // { output: '{"ok":true}', isError: false, metadata: { status: 200, contentType: 'text/plain;charset=UTF-8' } }
 */
export async function readHttpResponse(response: Response): Promise<ToolResult> {
  const contentType = response.headers.get('content-type') ?? undefined
  const metadata: Record<string, unknown> =
    contentType === undefined ? { status: response.status } : { status: response.status, contentType }
  const text = await readBody(response, contentType)
  if (!response.ok) {
    const shown = text === '' ? response.statusText : cut(text, MAX_ERROR_BODY_CHARS)
    return { output: `HTTP ${response.status}: ${shown}`, isError: true, metadata }
  }
  // An empty output reads to a model like the call did nothing; say what happened instead.
  const output = text === '' ? `HTTP ${response.status} (empty body)` : text
  return { output, isError: false, metadata }
}

async function readBody(response: Response, contentType: string | undefined): Promise<string> {
  const textual =
    contentType === undefined || contentType.startsWith('text/') || TEXTUAL_TYPE.test(contentType)
  const { bytes, cutAt } = await readBytes(response, MAX_RESPONSE_BYTES)
  if (!textual) {
    if (bytes.byteLength === 0) return ''
    const size = cutAt === undefined ? `${bytes.byteLength} bytes` : `more than ${cutAt} bytes`
    return `[binary response: ${contentType}, ${size}]`
  }
  // Like `response.text()`: UTF-8, a leading BOM dropped, a multi-byte character split by the cut replaced.
  const text = new TextDecoder().decode(bytes)
  return cutAt === undefined ? text : `${text}\n…[response cut at ${cutAt} bytes]`
}

// Reads at most `limit` bytes and cancels the rest, so a huge answer costs neither memory nor waiting.
async function readBytes(response: Response, limit: number): Promise<{ bytes: Uint8Array; cutAt?: number }> {
  if (response.body === null) return { bytes: new Uint8Array() }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let received = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return { bytes: concat(chunks, received) }
    const room = limit - received
    if (value.byteLength > room) {
      chunks.push(value.subarray(0, room))
      await reader.cancel()
      return { bytes: concat(chunks, limit), cutAt: limit }
    }
    chunks.push(value)
    received += value.byteLength
  }
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const bytes = new Uint8Array(length)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…[${text.length - limit} more characters]`
}
