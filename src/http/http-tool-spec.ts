import type { InputSchema } from '../tool/to-json-schema.js'

/** The HTTP methods an `httpTool` can use. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * An HTTP endpoint described as a tool. The model's arguments are routed: a `{placeholder}` in `url`
 * takes the argument of that name (URL-encoded); the names in `query` go to the query string; every
 * other argument goes to the JSON body for POST, PUT and PATCH, or to the query string for GET and
 * DELETE, which send no body.
 */
export interface HttpToolSpec {
  /** The exposed name: 1–64 of `[a-zA-Z0-9_-]`. */
  name: string
  /** What the endpoint does and when to use it; the model reads this. */
  description: string
  /** Case-insensitive at run time (`'get'` works from JavaScript). */
  method: HttpMethod
  /**
   * An absolute http(s) URL; `{name}` is filled from the argument `name`, which must be declared in
   * `inputSchema` (and is made required). A value of `.` or `..` is refused, so a call cannot step out of
   * the path.
   * @example 'https://api.github.com/repos/{owner}/{repo}/issues'
   */
  url: string
  /**
   * Sent with every call. `${NAME}` in a value is read from the environment when the tool is called; an
   * unset variable fails the call with a message that names it (never a value).
   * @example { Authorization: 'Bearer ${GITHUB_TOKEN}' }
   */
  headers?: Record<string, string>
  /** Arguments sent as the query string (a list value repeats the name: `tag=a&tag=b`). */
  query?: readonly string[]
  /**
   * Fixed fields added to the JSON body of every POST, PUT or PATCH call: values the model must not choose.
   * A field here cannot also be a property of `inputSchema`.
   * @example { stream: false }
   */
  body?: Record<string, unknown>
  /** The arguments: JSON Schema, zod, Standard Schema or an AI SDK `Schema`, with an object root. */
  inputSchema: InputSchema
  /** Milliseconds the request (and reading its body) may take. @default 30000 */
  timeoutMs?: number
}
