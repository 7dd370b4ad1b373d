import { createSecretScrubber, scrubToolResult, secretPartsOf } from '../shared/scrub-secrets.js'
import { headerIsSecret } from '../shared/secret-names.js'
import { registerToolSecrets } from '../shared/tool-secrets.js'
import { errorMessage, errorResult } from '../tool/tool-result.js'
import type { Tool, ToolContext, ToolResult } from '../tool/types.js'
import { validatingTool } from '../tool/validating-tool.js'
import { buildHttpRequest } from './build-http-request.js'
import { expandHeaderVariables, processEnvironment } from './expand-header-variables.js'
import { fetchWithRedirects } from './fetch-with-redirects.js'
import type { HttpToolSpec } from './http-tool-spec.js'
import { type HttpToolPlan, planHttpTool } from './plan-http-tool.js'
import { readHttpResponse } from './read-http-response.js'

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
  const tool = validatingTool({
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
  // However the tool reaches a toolkit (`http`, `tools`, `register()`), the toolkit's telemetry masks these.
  registerToolSecrets(tool, () => {
    const expanded = expandHeaderVariables(plan.headers, processEnvironment())
    return expanded.kind === 'expanded' ? headerSecrets(expanded.headers, expanded.secrets) : []
  })
  return tool
}

/**
 * The values to mask for a request's headers: every value from the environment, and every header value
 * but those that only describe the request (`Accept`, `Content-Type`), with its credential on its own.
 */
function headerSecrets(
  headers: ReadonlyArray<readonly [name: string, value: string]>,
  fromEnvironment: readonly string[],
): string[] {
  const secrets = [...fromEnvironment]
  for (const [name, value] of headers) {
    const carriesSecret = fromEnvironment.some((secret) => value.includes(secret))
    if (carriesSecret || headerIsSecret(name)) secrets.push(...secretPartsOf(value))
  }
  return secrets
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

  // The call's key, so that the server can recognise a second attempt of it; a configured header wins.
  if (context.idempotencyKey !== undefined && !headers.has('idempotency-key')) {
    headers.set('idempotency-key', context.idempotencyKey)
  }

  // The values from the environment, and the header values (a Basic credential decoded).
  const scrub = createSecretScrubber(headerSecrets(expanded.headers, expanded.secrets))
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
    const answer = await fetchWithRedirects({
      url: request.url,
      method: plan.method,
      headers,
      publicHeaders: new Headers({ accept: DEFAULT_ACCEPT }),
      body: request.body,
      signal: controller.signal,
    })
    if (answer.kind === 'refused') return fail(`${scrub(answer.message)}.`)
    const result = await readHttpResponse(answer.response)
    // A server may quote the request's headers back (a 401 "you sent Bearer …", a debug 500, an echo
    // endpoint); the values that came from the environment are secrets and must not reach the model or a log.
    return scrubToolResult(scrub, result)
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
