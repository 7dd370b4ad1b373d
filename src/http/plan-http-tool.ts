import { ToolDefinitionError } from '../errors.js'
import { isRecord } from '../shared/is-record.js'
import { sanitizeToolName, TOOL_NAME_PATTERN } from '../tool/names.js'
import { toJsonSchema } from '../tool/to-json-schema.js'
import type { JSONSchema } from '../tool/types.js'
import { HEADER_VARIABLE_PATTERN } from './expand-header-variables.js'
import type { HttpMethod, HttpToolSpec } from './http-tool-spec.js'

/** An `HttpToolSpec` checked and put in the form a call needs. */
export interface HttpToolPlan {
  name: string
  description: string
  method: HttpMethod
  /** The URL template, `{placeholders}` still in it. */
  url: string
  /** The `{placeholder}` names of the URL, each once, in order of appearance. */
  placeholders: string[]
  /** Arguments sent as the query string (GET and DELETE send every other argument there too). */
  query: string[]
  /** Fixed fields always sent in the JSON body; only for methods with a body. */
  body: Record<string, unknown> | undefined
  /** Header names and value templates (`${VAR}` still in them). */
  headers: Array<[name: string, template: string]>
  /** The exposed schema: the spec's, with every placeholder made required. */
  inputSchema: JSONSchema
  timeoutMs: number
}

/** Methods whose request carries the JSON body. */
export const METHODS_WITH_BODY: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH'])

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/** `{name}` in a URL template. */
export const URL_PLACEHOLDER_PATTERN = /\{([^{}]*)\}/g

const PLACEHOLDER_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/

// RFC 9110 token characters: what a header name may be made of.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

const DEFAULT_TIMEOUT_MS = 30_000

/**
 * Checks an `HttpToolSpec` once, when the tool is defined, so that a call can only fail for what the
 * model sent or what the server did. Each error names the tool and says what to change.
 *
 * @throws {ToolDefinitionError} for a bad name, method, URL, placeholder, query name, body or header.
 * @example
 * planHttpTool({ name: 'get_user', description: 'A user', method: 'GET',
 *   url: 'https://api.example.com/users/{id}', inputSchema: { type: 'object', properties: { id: { type: 'string' } } } })
 * // { …, placeholders: ['id'], inputSchema: { …, required: ['id'] } }
 */
export function planHttpTool(spec: HttpToolSpec): HttpToolPlan {
  if (typeof spec !== 'object' || spec === null) {
    throw new ToolDefinitionError(
      'httpTool: pass a spec object { name, description, method, url, inputSchema }.',
    )
  }
  const name = checkName(spec.name)
  const fail = (message: string, cause?: unknown): never => {
    throw new ToolDefinitionError(`HTTP tool "${name}": ${message}`, cause === undefined ? {} : { cause })
  }
  if (typeof spec.description !== 'string') {
    fail('description must be a string that tells the model what the endpoint does.')
  }
  const method = checkMethod(spec.method, fail)
  const inputSchema = toJsonSchema(spec.inputSchema, name)
  const properties = isRecord(inputSchema.properties) ? inputSchema.properties : {}
  const declared = (argument: string): boolean => Object.hasOwn(properties, argument)

  if (typeof spec.url !== 'string') fail('url must be a string such as "https://api.example.com/items/{id}".')
  const placeholders: string[] = []
  for (const match of spec.url.matchAll(URL_PLACEHOLDER_PATTERN)) {
    const placeholder = match[1] ?? ''
    if (!PLACEHOLDER_NAME.test(placeholder)) {
      fail(`the url placeholder {${placeholder}} is not a valid argument name: use letters, digits, _ and -.`)
    }
    if (!declared(placeholder)) {
      fail(`the url placeholder {${placeholder}} is not in inputSchema.properties: declare it there.`)
    }
    if (!placeholders.includes(placeholder)) placeholders.push(placeholder)
  }
  checkUrl(spec.url.replace(URL_PLACEHOLDER_PATTERN, 'x'), fail)

  const query = checkQuery(spec.query, { declared, placeholders, fail })
  const body = checkBody(spec.body, { method, declared, fail })
  const headers = checkHeaders(spec.headers, fail)
  const timeoutMs = spec.timeoutMs ?? DEFAULT_TIMEOUT_MS
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    fail(`timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}.`)
  }

  // A placeholder cannot be left empty, so the schema says so and the model is told before it calls.
  const required = Array.isArray(inputSchema.required) ? inputSchema.required : []
  const missing = placeholders.filter((placeholder) => !required.includes(placeholder))
  if (missing.length > 0) inputSchema.required = [...required, ...missing]

  return {
    name,
    description: spec.description,
    method,
    url: spec.url,
    placeholders,
    query,
    body,
    headers,
    inputSchema,
    timeoutMs,
  }
}

type Fail = (message: string, cause?: unknown) => never

function checkName(name: unknown): string {
  if (typeof name === 'string' && TOOL_NAME_PATTERN.test(name)) return name
  const suggestion = typeof name === 'string' && name.length > 0 ? ` Try "${sanitizeToolName(name)}".` : ''
  throw new ToolDefinitionError(
    `HTTP tool name ${JSON.stringify(name)} is not allowed: use 1–64 characters from [a-zA-Z0-9_-].${suggestion}`,
  )
}

function checkMethod(method: unknown, fail: Fail): HttpMethod {
  const upper = typeof method === 'string' ? method.toUpperCase() : undefined
  const found = METHODS.find((each) => each === upper)
  return found ?? fail(`method ${JSON.stringify(method)} is not supported: use one of ${METHODS.join(', ')}.`)
}

function checkUrl(url: string, fail: Fail): void {
  let parsed: URL | undefined
  try {
    parsed = new URL(url)
  } catch (error) {
    fail(
      `url "${url}" cannot be parsed: give an absolute http(s) URL such as "https://api.example.com/items/{id}".`,
      error,
    )
  }
  if (parsed !== undefined && parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    fail(`url must use http: or https:, got ${parsed.protocol}`)
  }
}

function checkQuery(
  query: unknown,
  options: { declared: (argument: string) => boolean; placeholders: readonly string[]; fail: Fail },
): string[] {
  if (query === undefined) return []
  const { declared, placeholders, fail } = options
  if (!Array.isArray(query) || query.some((each) => typeof each !== 'string')) {
    return fail('query must be a list of argument names, such as ["page", "per_page"].')
  }
  const names = query as string[]
  for (const argument of names) {
    if (!declared(argument))
      fail(`query names "${argument}", which is not in inputSchema.properties: declare it there.`)
    if (placeholders.includes(argument)) {
      fail(`"${argument}" is both a url placeholder and a query argument: keep it in one place.`)
    }
  }
  return [...new Set(names)]
}

function checkBody(
  body: unknown,
  options: { method: HttpMethod; declared: (argument: string) => boolean; fail: Fail },
): Record<string, unknown> | undefined {
  if (body === undefined) return undefined
  const { method, declared, fail } = options
  if (!METHODS_WITH_BODY.has(method)) {
    return fail(`a ${method} request has no body: drop body, or use POST, PUT or PATCH.`)
  }
  if (!isRecord(body)) {
    return fail(
      'body must be an object of fixed JSON fields sent with every call, such as { "stream": false }.',
    )
  }
  let copy: Record<string, unknown>
  try {
    copy = JSON.parse(JSON.stringify(body)) as Record<string, unknown>
  } catch (error) {
    return fail('body must be plain JSON data (no cycles, no BigInt).', error)
  }
  for (const field of Object.keys(copy)) {
    if (declared(field)) {
      fail(`body fixes "${field}", which inputSchema also lets the model set: remove it from one of them.`)
    }
  }
  return copy
}

function checkHeaders(headers: unknown, fail: Fail): Array<[string, string]> {
  if (headers === undefined) return []
  if (!isRecord(headers)) return fail('headers must be an object of header names to string values.')
  const checked: Array<[string, string]> = []
  for (const [header, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(header))
      fail(`header name ${JSON.stringify(header)} is not a valid HTTP header name.`)
    if (typeof value !== 'string') fail(`header "${header}" must have a string value.`)
    const template = value as string
    if (/[\r\n\0]/.test(template)) fail(`header "${header}" must not contain line breaks.`)
    // `${...}` that is not a plain variable name is almost always a typo; say so now, not at call time.
    const stripped = template.replace(HEADER_VARIABLE_PATTERN, '')
    if (stripped.includes('${')) {
      fail(
        `header "${header}" has a "\${...}" that is not a variable name: write \${NAME} with letters, digits and _.`,
      )
    }
    checked.push([header, template])
  }
  return checked
}
