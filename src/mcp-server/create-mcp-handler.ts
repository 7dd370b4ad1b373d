import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { ConfigError } from '../errors.js'
import type { Toolkit } from '../toolkit/create-toolkit.js'
import { createToolkitMcpServer, type McpServeOptions } from './create-toolkit-mcp-server.js'

/**
 * What `createMcpHandler` takes besides the toolkit.
 *
 * @example
 * const options: McpHandlerOptions = { sessions: 'stateless', allowedHosts: ['localhost', '127.0.0.1'] }
 */
export interface McpHandlerOptions extends McpServeOptions {
  /**
   * `stateful` keeps one MCP session per client in this process (the `Mcp-Session-Id` header), which
   * server-to-client requests need; `stateless` answers every request on its own, as plain JSON, for
   * serverless platforms where consecutive requests may reach different instances. @default 'stateful'
   */
  sessions?: 'stateful' | 'stateless'
  /**
   * Host names (optionally `host:port`) the server answers to; a request whose `Host` or `Origin` names
   * another gets 403. Set it for a server on localhost, where a web page could otherwise reach it
   * through DNS rebinding. @default any host
   */
  allowedHosts?: readonly string[]
  /** Sessions kept at once; past it the one idle longest is closed. @default 1000 */
  maxSessions?: number
  /** Milliseconds a session may stay unused before it is closed. @default 900000 (15 minutes) */
  sessionIdleMs?: number
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
  const { sessions = 'stateful', allowedHosts, maxSessions = DEFAULT_MAX_SESSIONS } = options
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
  const hostCheck = allowedHosts === undefined ? undefined : hostChecker(allowedHosts)
  const serve =
    sessions === 'stateless' ? statelessHandler(toolkit, options) : statefulHandler(toolkit, options)
  return async (request) => {
    const refused = hostCheck?.(request)
    if (refused !== undefined) return refused
    return serve(request)
  }
}

function statelessHandler(toolkit: Toolkit, options: McpServeOptions): McpHandler {
  return async (request) => {
    if (request.method !== 'POST') {
      return jsonRpcError(405, 'Method not allowed: this MCP server is stateless and answers POST only.', {
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
  options: McpServeOptions & { maxSessions?: number; sessionIdleMs?: number },
): McpHandler {
  const sessions = new Map<string, Session>()
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS
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
      if (session === undefined) return jsonRpcError(404, 'Session not found: initialize a new session.')
      session.lastUsed = now
      return session.transport.handleRequest(request)
    }
    if (request.method !== 'POST') {
      return jsonRpcError(400, 'Bad request: send an initialize request first, or the Mcp-Session-Id header.')
    }
    if (sessions.size >= maxSessions) {
      // Maps keep insertion order and a used session is not moved, so find the one idle longest.
      let oldest: [string, Session] | undefined
      for (const entry of sessions)
        if (oldest === undefined || entry[1].lastUsed < oldest[1].lastUsed) oldest = entry
      if (oldest !== undefined) close(...oldest)
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
    await server.connect(transport)
    const response = await transport.handleRequest(request)
    // Anything but an initialize is refused by the transport and starts no session.
    if (transport.sessionId === undefined) await server.close()
    return response
  }
}

/** A check of `Host` and `Origin` against the allowed hosts, answering 403 when either names another. */
function hostChecker(allowedHosts: readonly string[]): (request: Request) => Response | undefined {
  if (!Array.isArray(allowedHosts) || allowedHosts.some((host) => typeof host !== 'string' || host === '')) {
    throw new ConfigError('`allowedHosts` must be an array of host names, like ["localhost", "127.0.0.1"].', {
      field: 'allowedHosts',
    })
  }
  const allowed = new Set(allowedHosts.map((host) => host.toLowerCase()))
  const fits = (host: string): boolean => {
    const lower = host.toLowerCase()
    return allowed.has(lower) || allowed.has(hostnameOf(lower))
  }
  return (request) => {
    const host = request.headers.get('host')
    if (host === null || !fits(host)) return jsonRpcError(403, 'Forbidden: this host is not allowed.')
    const origin = request.headers.get('origin')
    if (origin !== null) {
      let originHost: string
      try {
        originHost = new URL(origin).host
      } catch {
        return jsonRpcError(403, 'Forbidden: the Origin header is not a URL.')
      }
      if (!fits(originHost)) return jsonRpcError(403, 'Forbidden: this origin is not allowed.')
    }
    return undefined
  }
}

/** `host:port` without the port (`[::1]:3000` → `[::1]`). */
function hostnameOf(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']')
    return end === -1 ? host : host.slice(0, end + 1)
  }
  const colon = host.lastIndexOf(':')
  return colon === -1 ? host : host.slice(0, colon)
}

function jsonRpcError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}
