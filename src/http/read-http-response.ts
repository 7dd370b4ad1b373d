import type { ToolResult } from '../tool/types.js'

/** Characters of a non-2xx response body kept in the error: enough to read the server's reason. */
export const MAX_ERROR_BODY_CHARS = 2_000

// Content types that are text even though they do not start with `text/`.
const TEXTUAL_TYPE = /json|xml|javascript|ecmascript|yaml|csv|x-www-form-urlencoded|graphql|html|markdown/i

/**
 * A fetch `Response` as a tool result: a 2xx body as the output, anything else as `isError` with
 * `HTTP <status>: <body>` (the body cut at 2 000 characters). A binary body (an image, a PDF) is
 * described by its type and size rather than decoded into noise. `metadata` has `status` and, when the
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
  if (contentType === undefined || contentType.startsWith('text/') || TEXTUAL_TYPE.test(contentType)) {
    return response.text()
  }
  const bytes = (await response.arrayBuffer()).byteLength
  return bytes === 0 ? '' : `[binary response: ${contentType}, ${bytes} bytes]`
}

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…[${text.length - limit} more characters]`
}
