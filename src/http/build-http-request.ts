import { toJsonText } from '../tool/tool-result.js'
import { type HttpToolPlan, METHODS_WITH_BODY, URL_PLACEHOLDER_PATTERN } from './plan-http-tool.js'

/** The request a call makes, or what in the arguments stops it. */
export type BuiltHttpRequest =
  | { kind: 'request'; url: URL; body: string | undefined }
  | { kind: 'invalid'; message: string }

/**
 * Routes a call's arguments: URL placeholders are filled (URL-encoded) and leave the rest, `query`
 * arguments join the query string, and what remains is the JSON body for POST, PUT and PATCH (with the
 * spec's fixed `body` fields) or more query parameters for GET and DELETE, which send no body.
 *
 * @example
 * buildHttpRequest(plan, { id: 'a/b', page: 2 }) // { kind: 'request', url: URL('…/items/a%2Fb?page=2'), body: undefined }
 */
export function buildHttpRequest(plan: HttpToolPlan, args: Record<string, unknown>): BuiltHttpRequest {
  for (const placeholder of plan.placeholders) {
    const value = args[placeholder]
    if (value === undefined || value === null) {
      return {
        kind: 'invalid',
        message: `the argument "${placeholder}" is needed to fill {${placeholder}} in the URL`,
      }
    }
    // URL parsers resolve "." and ".." as path steps even when percent-encoded, so they are refused.
    const text = toJsonText(value)
    if (text === '.' || text === '..' || text === '') {
      return {
        kind: 'invalid',
        message: `the argument "${placeholder}" cannot be ${JSON.stringify(text)}: it fills {${placeholder}} in the URL`,
      }
    }
  }
  let url: URL
  try {
    url = new URL(
      plan.url.replace(URL_PLACEHOLDER_PATTERN, (_whole, placeholder: string) =>
        encodeURIComponent(toJsonText(args[placeholder])),
      ),
    )
  } catch {
    // Only a placeholder in the host can do this (the template parsed when the tool was defined).
    return {
      kind: 'invalid',
      message: `the arguments ${plan.placeholders.join(', ')} do not make a valid URL`,
    }
  }

  const hasBody = METHODS_WITH_BODY.has(plan.method)
  // Entries, not assignment: an argument named `__proto__` stays a field instead of becoming a prototype.
  const bodyFields: Array<[string, unknown]> = []
  for (const [argument, value] of Object.entries(args)) {
    if (plan.placeholders.includes(argument)) continue
    if (plan.query.includes(argument) || !hasBody) appendQuery(url.searchParams, argument, value)
    else bodyFields.push([argument, value])
  }
  return {
    kind: 'request',
    url,
    body: hasBody ? JSON.stringify({ ...Object.fromEntries(bodyFields), ...plan.body }) : undefined,
  }
}

// An absent value is left out; a list repeats the name (`tag=a&tag=b`), the form most servers read.
function appendQuery(parameters: URLSearchParams, argument: string, value: unknown): void {
  if (value === undefined || value === null) return
  if (Array.isArray(value)) {
    for (const item of value) appendQuery(parameters, argument, item)
    return
  }
  parameters.append(argument, toJsonText(value))
}
