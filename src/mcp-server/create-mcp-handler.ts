import {
  type AuthInfo,
  isLegacyRequest,
  createMcpHandler as sdkMcpHandler,
} from '@modelcontextprotocol/server'
import { ConfigError } from '../errors.js'
import { listNames } from '../shared/did-you-mean.js'
import { isRecord } from '../shared/is-record.js'
import { consoleLogger, type Logger } from '../shared/logger.js'
import type { Toolkit } from '../toolkit/toolkit.js'
import { mayNeedApproval } from '../toolkit/toolkit-approvals.js'
import { approvalCodec } from './ask-approval.js'
import { checkParamHeaders, isToolCall, readJsonBody } from './check-param-headers.js'
import { readStateClaims } from './claim-request-state.js'
import {
  createToolkitMcpServer,
  type McpServeOptions,
  type ServedInstance,
} from './create-toolkit-mcp-server.js'
import { createMemoryEventStore, type McpEventStore } from './event-store.js'
import { HeldCalls } from './held-calls.js'
import { legacySessions } from './legacy-sessions.js'
import { refusal, requestGuard } from './request-guard.js'
import { resourceOwner } from './serve-mcp-sources.js'
import { taskStoreFor } from './serve-tasks.js'
import { servedStateCodec } from './served-state.js'
import { ServedSubscriptions, subscriptionLimits } from './served-subscriptions.js'
import { traceServedCalls } from './trace-served-call.js'

/**
 * What `createMcpHandler` takes besides the toolkit.
 *
 * @example
 * const options: McpHandlerOptions = {
 *   allowedHosts: ['mcp.example.com'],
 *   authorize: (request) => request.headers.get('authorization') === `Bearer ${process.env.MCP_TOKEN}`,
 * }
 */
export interface McpHandlerOptions extends McpServeOptions {
  /**
   * How 2025-era clients are served (2026-07-28 requests are stateless in both): `stateful` keeps one MCP
   * session per 2025 client in this process (the `Mcp-Session-Id` header), which asking such a client for
   * an approval needs; `stateless` answers every request on its own, for serverless platforms where
   * consecutive requests may reach different instances. @default 'stateful'
   */
  sessions?: 'stateful' | 'stateless'
  /**
   * Host names (optionally `host:port`) the server answers to; a request whose `Host` names another gets
   * 403, so a web page cannot reach a local server through DNS rebinding. Name your domain when you deploy
   * it; `['*']` answers any host (then set `authorize`). @default ['localhost', '127.0.0.1', '[::1]'], any port
   */
  allowedHosts?: readonly string[]
  /**
   * Origins (`https://app.example.com`) whose pages may call the server, besides those on an allowed
   * host. A request with any other `Origin` gets 403; one without (not from a browser) is not affected.
   * @default []
   */
  allowedOrigins?: readonly string[]
  /**
   * Checks the caller of every request (a bearer token, a session cookie, mTLS headers set by a proxy)
   * after the host checks; `false` (or a throw) answers 401. Tools that need approval are served only when
   * this is set: an approval question goes to the caller, so the caller must be someone you trust.
   * Return a string to name the caller (a user or client id): the tasks of `longRunning` tools are bound
   * to it, so no other caller can read, answer or cancel them. With `true`, or without `authorize`, a
   * task is bound to the request's `Authorization` header.
   */
  authorize?: (request: Request) => boolean | string | Promise<boolean | string>
  /**
   * 2025-era sessions kept at once; past it a new session is refused (503) until one closes or idles out, so new
   * callers never push out a live session. @default 1000
   */
  maxSessions?: number
  /** Milliseconds a session may stay unused before it is closed. @default 900000 (15 minutes) */
  sessionIdleMs?: number
  /** Where warnings go (tools left out for want of `authorize`, `claims` without a shared key). @default console */
  logger?: Logger
  /**
   * Where the events sent on 2025-era SSE streams are kept, so that a client whose stream closed
   * reconnects with `Last-Event-ID` and gets what it missed (2025-11-25 clients are sent an event id
   * and a `retry` first). A client resumes only its own session's streams. Give instances behind one
   * address a store they share (any `McpEventStore`); `false` keeps nothing (no resumption).
   * @default createMemoryEventStore(): bounded in memory by count, size and age
   *
   * @example
   * createMcpHandler({ toolkit, eventStore: createMemoryEventStore({ maxEvents: 50_000, maxAgeMs: 60_000 }) })
   */
  eventStore?: McpEventStore | false
  /** The `retry` (milliseconds) a resumable stream suggests to its client before it reconnects. @default 1000 */
  sseRetryMs?: number
  /**
   * Closes the SSE stream of a 2025-11-25 client's call still running after this many milliseconds;
   * the client reconnects with `Last-Event-ID` (after `sseRetryMs`) and gets the answer on the new
   * stream, so a long call holds no connection meanwhile. Needs `eventStore`. @default never
   */
  closeCallStreamsAfterMs?: number
}

/**
 * What `createMcpHandler` takes: the toolkit to serve and how.
 *
 * @example
 * const config: McpHandlerConfig = { toolkit, allowedHosts: ['mcp.example.com'], authorize: checkToken }
 */
export interface McpHandlerConfig extends McpHandlerOptions {
  /** The toolkit whose tools are served. */
  toolkit: Toolkit
}

/** A fetch handler: a Next.js route's `GET`/`POST`/`DELETE`, a Hono or Bun route, a Worker's `fetch`. */
export type McpHandler = (request: Request) => Promise<Response>

const DEFAULT_MAX_SESSIONS = 1000
const DEFAULT_SESSION_IDLE_MS = 15 * 60_000
const DEFAULT_SSE_RETRY_MS = 1000

/**
 * Serves a toolkit as an MCP server over streamable HTTP, as a fetch handler, to clients of both eras:
 * 2026-07-28 (stateless requests, each with its envelope; `server/discover`; the `Mcp-Method` and
 * `Mcp-Name` headers checked; `tools/list` with its `ttlMs`) and 2025-03-26 to 2025-11-25 (sessions,
 * `initialize`). Every tool with its schema and annotations, each call through the toolkit (validation,
 * timeout, output cap), error results as `isError`. A call that needs approval (`needsApproval`, the
 * toolkit's `approval` policy) is asked of the client's user: a 2026-07-28 client gets an
 * input-required answer with a yes/no form and retries with the answer; a 2025 client is asked through
 * elicitation in a stateful session. Where the client cannot ask, the call is refused with an error
 * result and not run. Built on the MCP SDK's serving entry and its web-standard transports, so it runs
 * on Node, Next.js (both runtimes), Bun, Deno and Workers.
 *
 * Safe for a local gateway by default: it answers only `localhost`, `127.0.0.1` and `[::1]` (any port),
 * refuses a browser `Origin` on another host, and serves tools that need approval only when `authorize`
 * says who the caller is (without it they are left out, with one warning). Deployed on a domain, name it
 * in `allowedHosts` and set `authorize`.
 *
 * @example
 * // app/api/mcp/route.ts
 * import { createMcpHandler } from 'toolnexus/mcp-server'
 * const handler = createMcpHandler({ toolkit: await createToolkit({ tools: [weather] }) })
 * export { handler as GET, handler as POST, handler as DELETE }
 */
export function createMcpHandler(config: McpHandlerConfig): McpHandler
/**
 * @deprecated Pass the toolkit with the options: `createMcpHandler({ toolkit, ...options })`.
 *
 * @example
 * const handler = createMcpHandler(toolkit, { authorize })
 */
export function createMcpHandler(toolkit: Toolkit, options?: McpHandlerOptions): McpHandler
export function createMcpHandler(first: Toolkit | McpHandlerConfig, second?: McpHandlerOptions): McpHandler {
  const { toolkit, ...options }: McpHandlerConfig =
    isRecord(first) && 'toolkit' in first
      ? (first as McpHandlerConfig)
      : { ...second, toolkit: first as Toolkit }
  if (typeof toolkit?.tools !== 'function' || typeof toolkit.execute !== 'function') {
    throw new ConfigError('createMcpHandler needs a Toolkit from createToolkit(...).')
  }
  const { sessions = 'stateful', maxSessions = DEFAULT_MAX_SESSIONS } = options
  const sessionIdleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS
  if (sessions !== 'stateful' && sessions !== 'stateless') {
    throw new ConfigError('`sessions` must be "stateful" or "stateless".', { field: 'sessions' })
  }
  if (!(Number.isInteger(maxSessions) && maxSessions >= 1)) {
    throw new ConfigError(
      `\`maxSessions\` must be a whole number of at least 1; got ${String(maxSessions)}.`,
      { field: 'maxSessions' },
    )
  }
  if (!(typeof sessionIdleMs === 'number' && sessionIdleMs > 0)) {
    throw new ConfigError(`\`sessionIdleMs\` must be a positive number; got ${String(sessionIdleMs)}.`, {
      field: 'sessionIdleMs',
    })
  }
  for (const field of ['sseRetryMs', 'closeCallStreamsAfterMs'] as const) {
    const value = options[field]
    if (value !== undefined && !(typeof value === 'number' && value >= 0 && Number.isFinite(value))) {
      throw new ConfigError(`\`${field}\` must be a number of milliseconds; got ${String(value)}.`, { field })
    }
  }
  const eventStore =
    options.eventStore === false ? undefined : (options.eventStore ?? createMemoryEventStore())
  const subscriptions = new ServedSubscriptions(toolkit, subscriptionLimits(options), (uri) =>
    resourceOwner(toolkit, uri),
  )
  const guard = requestGuard(options)
  const servesApprovals = options.authorize !== undefined
  const logger = options.logger ?? consoleLogger
  if (!servesApprovals) warnHiddenApprovals(toolkit, logger)
  const claims = readStateClaims(options, 'createMcpHandler')
  if (options.claims !== undefined && options.requestStateKey === undefined) {
    logger.warn(
      'createMcpHandler has `claims` but no `requestStateKey`: each instance seals request states with a key of its own, so a retry that reaches another instance is refused. Give every instance the same `requestStateKey`.',
    )
  }
  const codec = approvalCodec(options.requestStateKey, claims, logger)
  const forwarding = servedStateCodec(options.requestStateKey, claims, logger)
  const store = taskStoreFor(options)
  const traced = traceServedCalls(options.telemetry)
  const held = new HeldCalls()
  const instance = (served: Pick<ServedInstance, 'era' | 'canAsk' | 'tasks' | 'caller'>) =>
    createToolkitMcpServer(toolkit, {
      ...options,
      ...served,
      servesApprovals,
      codec,
      forwarding,
      traced,
      held,
      subscriptions,
      closeCallStreamsAfterMs: eventStore === undefined ? undefined : options.closeCallStreamsAfterMs,
    })
  const stateful = sessions === 'stateful'
  // 2026-07-28 requests, and in stateless mode 2025 ones too (a server per request, which cannot ask).
  const perRequest = sdkMcpHandler(
    ({ era, authInfo }) => {
      const owner = era === 'modern' ? callerOf(authInfo) : undefined
      return instance({
        era,
        canAsk: era === 'modern',
        ...(owner === undefined ? {} : { tasks: { store, owner }, caller: owner }),
      })
    },
    { legacy: stateful ? 'reject' : 'stateless' },
  )
  const sessionful = stateful
    ? legacySessions({
        createServer: () => instance({ era: 'legacy', canAsk: true }),
        maxSessions,
        sessionIdleMs,
        eventStore,
        retryMs: options.sseRetryMs ?? DEFAULT_SSE_RETRY_MS,
      })
    : undefined
  // A served tool's schema, for the check of its Mcp-Param-* headers; nothing for a tool not served.
  const inputSchemaOf = (name: string): unknown => {
    const tool = toolkit.get(name)
    return tool !== undefined && (servesApprovals || !mayNeedApproval(toolkit, tool))
      ? tool.inputSchema
      : undefined
  }
  const serve = (request: Request, parsed: unknown, authInfo: AuthInfo): Promise<Response> =>
    perRequest.fetch(request, { authInfo, ...(parsed !== undefined && { parsedBody: parsed }) })
  // A 2026-07-28 call whose Mcp-Param-* headers are missing or disagree with its arguments is refused.
  const serveModern = async (request: Request, parsed: unknown, authInfo: AuthInfo): Promise<Response> =>
    checkParamHeaders({ message: parsed, headers: request.headers, inputSchemaOf }) ??
    serve(request, parsed, authInfo)
  return async (request) => {
    const pass = await guard(request)
    if (pass instanceof Response) return pass
    // Who the caller is, for the tasks of this request: handed to the server instance made for it.
    const authInfo = callerInfo(request, pass.caller)
    // Read once: the era, the header check and the SDK all see this message.
    const body = await readJsonBody(request)
    if (body instanceof Response) return body
    const { parsed } = body
    if (sessionful === undefined) {
      if (request.method !== 'POST') {
        return refusal(405, 'Method not allowed: this MCP server is stateless and answers POST only.', {
          allow: 'POST',
        })
      }
      // Only a 2026-07-28 call carries Mcp-Param-* headers; a 2025 one is served as it comes.
      const legacyCall = !isToolCall(parsed) || (await isLegacyRequest(request, parsed))
      return legacyCall ? serve(request, parsed, authInfo) : serveModern(request, parsed, authInfo)
    }
    const legacy =
      request.method !== 'POST' ||
      request.headers.has('mcp-session-id') ||
      (await isLegacyRequest(request, parsed))
    return legacy ? sessionful(request, parsed) : serveModern(request, parsed, authInfo)
  }
}
// The key under which the caller's identity rides to the server instance of a request.
const CALLER_KEY = 'toolnexus/caller'

/**
 * The caller of one request, as the SDK hands it to the server factory: the identity `authorize` named,
 * else a digest of the `Authorization` header (the same credentials, the same caller), worked out only
 * when a task needs it.
 */
function callerInfo(request: Request, caller: string | undefined): AuthInfo {
  let owner: Promise<string> | undefined
  const ownerOf = (): Promise<string> => {
    owner ??=
      caller === undefined
        ? sha256Hex(request.headers.get('authorization') ?? '').then((digest) => `credentials:${digest}`)
        : Promise.resolve(`caller:${caller}`)
    return owner
  }
  return { token: '', clientId: '', scopes: [], extra: { [CALLER_KEY]: ownerOf } }
}

function callerOf(authInfo: AuthInfo | undefined): (() => Promise<string>) | undefined {
  const owner = authInfo?.extra?.[CALLER_KEY]
  return typeof owner === 'function' ? (owner as () => Promise<string>) : undefined
}

async function sha256Hex(text: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
  return Array.from(hash, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** One warning naming every tool left out because no `authorize` says who the caller is. */
function warnHiddenApprovals(toolkit: Toolkit, logger: Logger): void {
  const hidden = toolkit
    .tools()
    .filter((tool) => mayNeedApproval(toolkit, tool))
    .map((tool) => tool.name)
  if (hidden.length === 0) return
  logger.warn(
    `createMcpHandler leaves out ${listNames(hidden)}: ${hidden.length === 1 ? 'it needs' : 'they need'} ` +
      'approval, which is served only to authorized callers. Set `authorize` to serve them.',
  )
}
