import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { ConfigError } from '../errors.js'
import { listNames } from '../shared/did-you-mean.js'
import { consoleLogger, type Logger } from '../shared/logger.js'
import type { Toolkit } from '../toolkit/toolkit.js'
import { mayNeedApproval } from '../toolkit/toolkit-approvals.js'
import { createToolkitMcpServer, type McpServeOptions } from './create-toolkit-mcp-server.js'
import { refusal, requestGuard } from './request-guard.js'

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
   * `stateful` keeps one MCP session per client in this process (the `Mcp-Session-Id` header), which
   * server-to-client requests need; `stateless` answers every request on its own, as plain JSON, for
   * serverless platforms where consecutive requests may reach different instances. @default 'stateful'
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
   */
  authorize?: (request: Request) => boolean | Promise<boolean>
  /**
   * Sessions kept at once; past it a new session is refused (503) until one closes or idles out, so new
   * callers never push out a live session. @default 1000
   */
  maxSessions?: number
  /** Milliseconds a session may stay unused before it is closed. @default 900000 (15 minutes) */
  sessionIdleMs?: number
  /** Where warnings go (tools left out for want of `authorize`). @default console */
  logger?: Logger
}

/** A fetch handler: a Next.js route's `GET`/`POST`/`DELETE`, a Hono or Bun route, a Worker's `fetch`. */
export type McpHandler = (request: Request) => Promise<Response>

interface Session {
  server: Server
  transport: WebStandardStreamableHTTPServerTransport
  lastUsed: number
}

const DEFAULT_MAX_SESSIONS = 1000
const DEFAULT_SESSION_IDLE_MS = 15 * 60_000

/**
 * Serves a toolkit as an MCP server over streamable HTTP, as a fetch handler: every tool with its schema
 * and annotations, each call through the toolkit (validation, timeout, output cap), error results as
 * `isError`. A call that needs approval (`needsApproval`, the toolkit's `approval` policy) is asked of
 * the client's user through elicitation, in a stateful session with a client that supports it; otherwise
 * it is refused with an error result and not run. Built on the MCP SDK's `Server` and its web-standard
 * streamable HTTP transport, so it runs on Node, Next.js (both runtimes), Bun, Deno and Workers.
 *
 * Safe for a local gateway by default: it answers only `localhost`, `127.0.0.1` and `[::1]` (any port),
 * refuses a browser `Origin` on another host, and serves tools that need approval only when `authorize`
 * says who the caller is (without it they are left out, with one warning). Deployed on a domain, name it
 * in `allowedHosts` and set `authorize`.
 *
 * @example
 * // app/api/mcp/route.ts
 * import { createMcpHandler } from 'toolnexus/mcp-server'
 * const handler = createMcpHandler(await createToolkit({ tools: [weather] }))
 * export { handler as GET, handler as POST, handler as DELETE }
 */
export function createMcpHandler(toolkit: Toolkit, options: McpHandlerOptions = {}): McpHandler {
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
  const guard = requestGuard(options)
  const servesApprovals = options.authorize !== undefined
  if (!servesApprovals) warnHiddenApprovals(toolkit, options.logger ?? consoleLogger)
  const serve =
    sessions === 'stateless'
      ? statelessHandler(toolkit, { ...options, servesApprovals })
      : statefulHandler(toolkit, { ...options, servesApprovals, maxSessions, sessionIdleMs })
  return async (request) => (await guard(request)) ?? serve(request)
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

type ServeOptions = McpServeOptions & { servesApprovals: boolean }

function statelessHandler(toolkit: Toolkit, options: ServeOptions): McpHandler {
  return async (request) => {
    if (request.method !== 'POST') {
      return refusal(405, 'Method not allowed: this MCP server is stateless and answers POST only.', {
        allow: 'POST',
      })
    }
    // A server and transport per request: nothing is shared between requests, nothing outlives one.
    const server = createToolkitMcpServer(toolkit, { ...options, canAsk: false })
    // No session id generator: the SDK's stateless mode.
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
    await server.connect(transport)
    try {
      return await transport.handleRequest(request)
    } finally {
      await server.close()
    }
  }
}

function statefulHandler(
  toolkit: Toolkit,
  options: ServeOptions & { maxSessions: number; sessionIdleMs: number },
): McpHandler {
  const sessions = new Map<string, Session>()
  const { maxSessions, sessionIdleMs: idleMs } = options
  // Sessions being initialized, counted against the cap with the live ones.
  let starting = 0
  const close = (id: string, session: Session): void => {
    sessions.delete(id)
    session.server.close().catch(() => {})
  }
  // Swept on each request rather than on a timer, so an idle process keeps nothing scheduled.
  const sweep = (now: number): void => {
    for (const [id, session] of sessions) if (now - session.lastUsed > idleMs) close(id, session)
  }
  return async (request) => {
    const now = Date.now()
    sweep(now)
    const id = request.headers.get('mcp-session-id')
    if (id !== null) {
      const session = sessions.get(id)
      if (session === undefined) return refusal(404, 'Session not found: initialize a new session.')
      session.lastUsed = now
      return session.transport.handleRequest(request)
    }
    if (request.method !== 'POST') {
      return refusal(400, 'Bad request: send an initialize request first, or the Mcp-Session-Id header.')
    }
    // A live session is never closed to make room: a stranger's initialize must not end someone's work.
    if (sessions.size + starting >= maxSessions) {
      return refusal(503, `Too many sessions (maxSessions ${maxSessions}): try again later.`, {
        'retry-after': '60',
      })
    }
    const server = createToolkitMcpServer(toolkit, { ...options, canAsk: true })
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { server, transport, lastUsed: now })
      },
      onsessionclosed: (sessionId) => {
        sessions.delete(sessionId)
      },
    })
    starting++
    try {
      await server.connect(transport)
      const response = await transport.handleRequest(request)
      // Anything but an initialize is refused by the transport and starts no session.
      if (transport.sessionId === undefined) await server.close()
      return response
    } finally {
      starting--
    }
  }
}
