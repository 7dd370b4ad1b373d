import {
  type Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server'
import { isRecord } from '../shared/is-record.js'
import { type McpEventStore, sessionEventStore } from './event-store.js'
import { refusal } from './request-guard.js'

interface Session {
  server: Server
  transport: WebStandardStreamableHTTPServerTransport
  lastUsed: number
  /** The version the client asked for at `initialize`, which the server speaks: the session's. */
  version: string | undefined
}

/**
 * The 2025-era sessions of a stateful handler: one MCP session per client (the `Mcp-Session-Id`
 * header), each with its own server, so server-to-client requests (an approval asked through
 * elicitation) reach the client that made the call. At most `maxSessions` at once: past it a new
 * session is refused (503) and no live one is closed to make room; one unused for `sessionIdleMs` is
 * closed on the next request (no timer, so an idle process keeps nothing scheduled). With `eventStore`,
 * a client resumes a stream that closed with `Last-Event-ID`, within its own session only.
 *
 * @example
 * const legacy = legacySessions({ createServer: () => createToolkitMcpServer(toolkit, served), maxSessions: 1000, sessionIdleMs: 900_000 })
 * const response = await legacy(request)
 */
export function legacySessions(options: {
  createServer: () => Server
  maxSessions: number
  sessionIdleMs: number
  /** Where the sessions' SSE events are kept for a client that resumes with `Last-Event-ID`. */
  eventStore?: McpEventStore | undefined
  /** The `retry` (milliseconds) a resumable stream suggests to its client. */
  retryMs?: number | undefined
}): (request: Request, parsedBody?: unknown) => Promise<Response> {
  const sessions = new Map<string, Session>()
  const { createServer, maxSessions, sessionIdleMs: idleMs, eventStore, retryMs } = options
  // Sessions being initialized, counted against the cap with the live ones.
  let starting = 0
  const close = (id: string, session: Session): void => {
    sessions.delete(id)
    session.server.close().catch(() => {})
  }
  const sweep = (now: number): void => {
    for (const [id, session] of sessions) if (now - session.lastUsed > idleMs) close(id, session)
  }
  // The body, when the caller has read it already, goes to the transport parsed.
  return async (request, parsedBody) => {
    const given = parsedBody === undefined ? undefined : { parsedBody }
    const now = Date.now()
    sweep(now)
    const id = request.headers.get('mcp-session-id')
    if (id !== null) {
      const session = sessions.get(id)
      if (session === undefined) return refusal(404, 'Session not found: initialize a new session.')
      session.lastUsed = now
      return session.transport.handleRequest(asSessionVersion(request, session.version, parsedBody), given)
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
    const server = createServer()
    // Known before the transport exists: its events are kept under it.
    const sessionId = crypto.randomUUID()
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      ...(eventStore !== undefined && { eventStore: sessionEventStore(eventStore, sessionId) }),
      ...(retryMs !== undefined && { retryInterval: retryMs }),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { server, transport, lastUsed: now, version: askedVersion(parsedBody) })
      },
      onsessionclosed: (sessionId) => {
        sessions.delete(sessionId)
      },
    })
    starting++
    try {
      await server.connect(transport)
      const response = await transport.handleRequest(request, given)
      // Anything but an initialize is refused by the transport and starts no session.
      if (transport.sessionId === undefined) await server.close()
      return response
    } finally {
      starting--
    }
  }
}

/** The version an `initialize` request asks for, when the server speaks it (it then answers with it). */
function askedVersion(message: unknown): string | undefined {
  const params = isRecord(message) && message.method === 'initialize' ? message.params : undefined
  const version = isRecord(params) ? params.protocolVersion : undefined
  return typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version) ? version : undefined
}

/**
 * The request as its session's version: one whose `MCP-Protocol-Version` names an older revision than
 * the session negotiated is served as the session's revision (the client said at `initialize` what it
 * speaks; a 2025-11-25 session's calls keep their resumable streams). Any other request as it came.
 */
function asSessionVersion(request: Request, version: string | undefined, parsedBody: unknown): Request {
  const header = request.headers.get('mcp-protocol-version')
  if (version === undefined || header === null || header >= version) return request
  if (!SUPPORTED_PROTOCOL_VERSIONS.includes(header)) return request
  // A POST is rebuilt without its body only when the body was read already.
  if (request.method === 'POST' && parsedBody === undefined) return request
  const headers = new Headers(request.headers)
  headers.set('mcp-protocol-version', version)
  return new Request(request.url, { method: request.method, headers, signal: request.signal })
}
