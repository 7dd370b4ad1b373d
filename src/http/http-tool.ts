import { createSecretScrubber } from '../shared/scrub-secrets.js'
import type { InputSchema } from '../tool/to-json-schema.js'
import { errorMessage, errorResult } from '../tool/tool-result.js'
import type { Tool, ToolContext, ToolResult } from '../tool/types.js'
import { validatingTool } from '../tool/validating-tool.js'
import { buildHttpRequest } from './build-http-request.js'
import { expandHeaderVariables, processEnvironment } from './expand-header-variables.js'
import { readHttpResponse } from './read-http-response.js'
import { type HttpToolPlan, planHttpTool } from './validate-http-tool-spec.js'

/** The HTTP methods an `httpTool` can use. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * An HTTP endpoint described as a tool (§7). The model's arguments are routed: a `{placeholder}` in `url`
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

const DEFAULT_ACCEPT = 'application/json, text/plain;q=0.9, */*;q=0.8'

/**
 * Makes an HTTP endpoint a tool (`source: 'http'`), using only `fetch`, so it also runs on edge runtimes.
 * A 2xx answer's body is the output, with `metadata.status` and `metadata.contentType`; anything else is
 * `isError` with `HTTP <status>: <body>`. A timeout, an abort, a refused connection or an unset header
 * variable is an error result too: `execute` never throws, and no message ever holds a header value.
 *
 * @throws {ToolDefinitionError} when the spec cannot work (bad name or method, unparseable URL, a
 * placeholder or query name the schema does not declare); the message says what to change.
 * @example
 * const createIssue = httpTool({
 *   name: 'create_issue',
 *   description: 'Open an issue in a GitHub repository',
 *   method: 'POST',
 *   url: 'https://api.github.com/repos/{owner}/{repo}/issues',
 *   headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' },
 *   inputSchema: {
 *     type: 'object',
 *     properties: { owner: { type: 'string' }, repo: { type: 'string' }, title: { type: 'string' } },
 *     required: ['title'],
 *   },
 * })
 * await createIssue.execute({ owner: 'acme', repo: 'app', title: 'Crash on start' })
 * // POST …/repos/acme/app/issues with the body {"title":"Crash on start"}
 */
export function httpTool(spec: HttpToolSpec): Tool {
  const plan = planHttpTool(spec)
  return validatingTool({
    name: plan.name,
    description: plan.description,
    inputSchema: plan.inputSchema,
    source: 'http',
    async run(args, context) {
      try {
        return await callEndpoint(plan, args, context)
      } catch {
        // Nothing above should throw; if something does, its message could quote a header, so it is not shown.
        return errorResult(`HTTP tool "${plan.name}" failed unexpectedly.`)
      }
    },
  })
}

async function callEndpoint(
  plan: HttpToolPlan,
  args: Record<string, unknown>,
  context: ToolContext,
): Promise<ToolResult> {
  const fail = (message: string): ToolResult => errorResult(`HTTP tool "${plan.name}": ${message}`)
  const request = buildHttpRequest(plan, args)
  if (request.kind === 'invalid') return fail(`${request.message}.`)
  const target = `${plan.method} ${request.url.origin}${request.url.pathname}`

  const expanded = expandHeaderVariables(plan.headers, processEnvironment())
  switch (expanded.kind) {
    case 'missing':
      return fail(
        `the environment variable ${expanded.variable} (used in the "${expanded.header}" header) is not set.`,
      )
    case 'invalid':
      return fail(
        `the environment variable ${expanded.variable} (used in the "${expanded.header}" header) holds a line break, which a header cannot carry.`,
      )
    case 'expanded':
      break
    default:
      return expanded satisfies never
  }
  const headers = new Headers({ accept: DEFAULT_ACCEPT })
  if (request.body !== undefined) headers.set('content-type', 'application/json')
  for (const [header, value] of expanded.headers) {
    try {
      headers.set(header, value)
    } catch {
      // The platform's message would quote the value.
      return fail(`the "${header}" header holds characters HTTP does not allow.`)
    }
  }

  if (context.signal?.aborted) return fail(`the request to ${target} was aborted before it was sent.`)
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort(new Error(`no response within ${plan.timeoutMs} ms`))
  }, plan.timeoutMs)
  const onAbort = (): void => controller.abort(context.signal?.reason)
  context.signal?.addEventListener('abort', onAbort, { once: true })
  try {
    const response = await fetch(request.url, {
      method: plan.method,
      headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      signal: controller.signal,
    })
    const result = await readHttpResponse(response)
    // A failing server may quote the request's headers back (a 401 "you sent Bearer …", a debug 500);
    // the values that came from the environment are secrets and must not reach the model or a log.
    return result.isError
      ? { ...result, output: createSecretScrubber(expanded.secrets)(result.output) }
      : result
  } catch (error) {
    if (timedOut) return fail(`no response from ${target} within ${plan.timeoutMs} ms.`)
    if (controller.signal.aborted) return fail(`the request to ${target} was aborted.`)
    return fail(`the request to ${target} failed: ${networkReason(error)}.`)
  } finally {
    clearTimeout(timer)
    context.signal?.removeEventListener('abort', onAbort)
  }
}

// `fetch` says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, …) is on its cause.
function networkReason(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined
  if (cause instanceof Error) {
    const code = 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined
    if (cause.message !== '') return cause.message
    if (code !== undefined) return code
  }
  return errorMessage(error)
}
