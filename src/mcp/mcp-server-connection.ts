import { stat } from 'node:fs/promises'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  CompatibilityCallToolResultSchema,
  ErrorCode,
  McpError,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js'
import { createSecretScrubber, type SecretScrubber, scrubToolResult } from '../shared/scrub-secrets.js'
import { signalBeyondDeadline } from '../tool/call-context.js'
import { errorMessage, errorResult } from '../tool/tool-result.js'
import type { ToolContext, ToolResult } from '../tool/types.js'
import { VERSION } from '../version.js'
import { mapCallToolResult } from './map-call-tool-result.js'
import type { RemoteServerPlan, StdioServerPlan } from './parse-mcp-config.js'
import { StdioProcessTransport } from './stdio-process-transport.js'
import { PhaseTimeoutError, withDeadline } from './with-deadline.js'

/**
 * How a connected server is spoken to.
 *
 * @example
 * const kind: McpTransportKind = 'streamable-http'
 */
export type McpTransportKind = 'stdio' | 'streamable-http' | 'sse'

/**
 * A server's state as the connection knows it.
 *
 * @example
 * if (connection.state.status === 'failed') console.warn(connection.state.reason)
 */
export type ConnectionState =
  | { status: 'connecting' }
  | { status: 'connected'; transport: McpTransportKind }
  | { status: 'failed'; reason: string; transport?: McpTransportKind }
  | { status: 'closed' }

interface Session {
  client: Client
  transport: Transport
  kind: McpTransportKind
  /** Set when the transport closed under us (the process exited, the session was lost). */
  lost: string | undefined
  /** How much stderr the process had written when the session became usable; later output explains a crash. */
  stderrMark: number
}

const CLIENT_INFO = { name: 'toolnexus', version: VERSION }
const DEFAULT_CALL_TIMEOUT_MS = 60_000
const MAX_TOOL_PAGES = 1000
const STDERR_IN_REASON_CHARS = 600
const STDERR_DRAIN_MS = 1000
const TERMINATE_SESSION_MS = 1000
// Statuses an endpoint answers with when it does not speak streamable HTTP but may speak SSE.
const SSE_FALLBACK_STATUSES = new Set([400, 404, 405])

/**
 * One configured MCP server: connects (each phase bounded by the server's `timeout`), lists its tools,
 * calls them, and reconnects on the next call after the server died. Every message it produces has the
 * server's secrets masked; `call` never throws.
 *
 * @example
 * const connection = new McpServerConnection(plan)
 * const tools = await connection.open()
 * await connection.call('echo', { text: 'hi' }, {})
 * await connection.close()
 */
export class McpServerConnection {
  readonly plan: StdioServerPlan | RemoteServerPlan
  readonly #scrub: SecretScrubber
  #state: ConnectionState = { status: 'connecting' }
  #session: Session | undefined
  #reopening: Promise<Session> | undefined
  // Sessions being torn down in the background; `close()` waits for them.
  readonly #retiring = new Set<Promise<void>>()

  constructor(plan: StdioServerPlan | RemoteServerPlan) {
    this.plan = plan
    this.#scrub = createSecretScrubber(plan.secrets)
  }

  get name(): string {
    return this.plan.name
  }

  get state(): ConnectionState {
    return this.#state
  }

  /** Connects and lists every tool (all pages). Rejects with a message that is safe to show. */
  async open(): Promise<McpTool[]> {
    try {
      const { session, tools } = await this.#connectAndList()
      this.#adopt(session)
      return tools
    } catch (error) {
      const reason = this.#scrub(describeError(error))
      this.#state = { status: 'failed', reason }
      throw new Error(reason, { cause: error })
    }
  }

  /** Calls a tool by its name on the server. Never throws: every failure is an error result. */
  async call(tool: string, args: Record<string, unknown>, context: ToolContext = {}): Promise<ToolResult> {
    const origin = { server: this.name, tool }
    // The SDK enforces `timeout` itself; it needs a signal only for what else can abort the call.
    const signal = signalBeyondDeadline(context)
    for (let attempt = 1; ; attempt++) {
      if (this.#state.status === 'closed') return errorResult(`MCP server "${this.name}" is closed.`)
      let session: Session
      try {
        session = await this.#ready()
      } catch (error) {
        return errorResult(
          `MCP server "${this.name}" is unavailable, so tool "${tool}" was not run: ${this.#scrub(describeError(error))}`,
          origin,
        )
      }
      try {
        const result = await session.client.callTool(
          { name: tool, arguments: args },
          CompatibilityCallToolResultSchema,
          {
            timeout: context.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
            ...(signal && { signal }),
          },
        )
        const mapped = mapCallToolResult(result, origin)
        // Successful results too: a server may echo its own token back in a result or its content.
        return scrubToolResult(this.#scrub, mapped)
      } catch (error) {
        // A remote server that forgot our session never ran the call: reconnect and send it once more.
        if (isSessionGone(error)) {
          this.#markLost(session, 'the server no longer knows this session')
          if (attempt === 1) continue
        } else if (session.kind !== 'stdio' && !(error instanceof McpError)) {
          // The request never reached the server (network error): reconnect on the next call.
          this.#markLost(session, describeError(error))
        }
        return errorResult(this.#describeCallFailure(tool, session, error), origin)
      }
    }
  }

  /** Disconnects and ends the server's process (and its children). Idempotent. */
  async close(): Promise<void> {
    this.#state = { status: 'closed' }
    const session = this.#session
    this.#session = undefined
    if (session !== undefined) this.#retire(session)
    const reopening = this.#reopening
    if (reopening !== undefined) await reopening.catch(() => undefined)
    while (this.#retiring.size > 0) await Promise.all(this.#retiring)
  }

  /** The live session, reconnecting first when the server died since the last call. */
  #ready(): Promise<Session> {
    const session = this.#session
    if (session !== undefined && session.lost === undefined) return Promise.resolve(session)
    this.#reopening ??= this.#connectAndList()
      .then(({ session: fresh }) => {
        if (this.#state.status === 'closed') {
          this.#retire(fresh)
          throw new Error('the toolkit was closed')
        }
        this.#adopt(fresh)
        return fresh
      })
      .catch((error: unknown) => {
        const reason = this.#scrub(describeError(error))
        if (this.#state.status !== 'closed') this.#state = { status: 'failed', reason }
        throw new Error(reason, { cause: error })
      })
      .finally(() => {
        this.#reopening = undefined
      })
    return this.#reopening
  }

  #adopt(session: Session): void {
    const previous = this.#session
    if (previous !== undefined && previous !== session) this.#retire(previous)
    this.#session = session
    this.#state = { status: 'connected', transport: session.kind }
    if (session.transport instanceof StdioProcessTransport)
      session.stderrMark = session.transport.stderrLength
    session.client.onclose = () => this.#markLost(session, this.#describeExit(session))
  }

  #markLost(session: Session, reason: string): void {
    if (session.lost !== undefined) return
    session.lost = this.#scrub(reason)
    if (this.#session === session && this.#state.status !== 'closed') {
      this.#state = {
        status: 'failed',
        reason: `disconnected (${session.lost}); reconnects on the next tool call`,
        transport: session.kind,
      }
    }
  }

  async #connectAndList(): Promise<{ session: Session; tools: McpTool[] }> {
    const session = await this.#connect()
    try {
      const tools = await withDeadline(this.#listTools(session.client), {
        ms: this.plan.timeoutMs,
        phase: 'tools/list',
      })
      return { session, tools }
    } catch (error) {
      this.#retire(session)
      throw error
    }
  }

  async #connect(): Promise<Session> {
    const { plan } = this
    if (plan.kind === 'stdio') return this.#connectStdio(plan)
    if (plan.protocol === 'sse') return this.#connectRemote(plan, 'sse')
    try {
      return await this.#connectRemote(plan, 'streamable-http')
    } catch (error) {
      if (!(error instanceof StreamableHTTPError && SSE_FALLBACK_STATUSES.has(error.code ?? 0))) throw error
      try {
        return await this.#connectRemote(plan, 'sse')
      } catch (fallbackError) {
        throw new Error(
          `streamable HTTP failed (${describeError(error)}), and so did SSE (${describeError(fallbackError)})`,
          { cause: fallbackError },
        )
      }
    }
  }

  async #connectStdio(plan: StdioServerPlan): Promise<Session> {
    if (plan.cwd !== undefined) {
      const folder = await stat(plan.cwd).catch(() => undefined)
      if (!folder?.isDirectory()) throw new Error(`"cwd" ${plan.cwd} is not an existing folder`)
    }
    const transport = new StdioProcessTransport({
      command: plan.command,
      args: plan.args,
      env: { ...definedEntries(process.env), ...plan.env },
      cwd: plan.cwd,
    })
    const session: Session = { client: newClient(), transport, kind: 'stdio', lost: undefined, stderrMark: 0 }
    try {
      return await initialize(session, plan.timeoutMs)
    } catch (error) {
      // A process that has exited may still have stderr in the pipe; it is the best clue to why.
      if (transport.exit !== undefined) await transport.drained(STDERR_DRAIN_MS)
      this.#retire(session)
      throw new Error(this.#describeStartFailure(plan, transport, error), { cause: error })
    }
  }

  async #connectRemote(plan: RemoteServerPlan, kind: 'streamable-http' | 'sse'): Promise<Session> {
    const requestInit: RequestInit = { headers: plan.headers }
    const transport =
      kind === 'sse'
        ? new SSEClientTransport(plan.url, { requestInit })
        : new StreamableHTTPClientTransport(plan.url, { requestInit })
    const session: Session = { client: newClient(), transport, kind, lost: undefined, stderrMark: 0 }
    try {
      return await initialize(session, plan.timeoutMs)
    } catch (error) {
      this.#retire(session)
      throw error
    }
  }

  async #listTools(client: Client): Promise<McpTool[]> {
    // A server that offers only prompts or resources has no tools/list to call.
    if (client.getServerCapabilities()?.tools === undefined) return []
    const tools: McpTool[] = []
    const seenCursors = new Set<string>()
    let cursor: string | undefined
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const result = await client.listTools(cursor === undefined ? {} : { cursor }, {
        timeout: this.plan.timeoutMs,
      })
      tools.push(...result.tools)
      cursor = result.nextCursor
      // A server that hands out the same cursor twice would page forever.
      if (cursor === undefined || seenCursors.has(cursor)) return tools
      seenCursors.add(cursor)
    }
    return tools
  }

  /** Closes a session in the background; `close()` waits for every one. */
  #retire(session: Session): void {
    if (this.#session === session) this.#session = undefined
    session.lost ??= 'closed'
    const closing = closeSession(session).finally(() => this.#retiring.delete(closing))
    this.#retiring.add(closing)
  }

  #describeStartFailure(plan: StdioServerPlan, transport: StdioProcessTransport, error: unknown): string {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' && transport.pid === undefined) {
      const hint =
        /\s/.test(plan.command) && plan.args.length === 0
          ? ' (to pass arguments, put them in "args" or make "command" an array)'
          : ''
      return `command "${plan.command}" was not found${hint}`
    }
    if (code === 'EACCES' && transport.pid === undefined) return `command "${plan.command}" is not executable`
    const exit = transport.exit
    const what =
      error instanceof PhaseTimeoutError
        ? error.message
        : exit !== undefined
          ? `the process ${describeProcessExit(exit)} before it finished initializing`
          : `initialize failed: ${describeError(error)}`
    return `${what}${stderrNote(transport.stderrTail)}`
  }

  #describeExit(session: Session): string {
    const { transport } = session
    if (!(transport instanceof StdioProcessTransport)) return 'the connection closed'
    const exit = transport.exit
    const what = exit === undefined ? 'the connection closed' : `the process ${describeProcessExit(exit)}`
    return `${what}${stderrNote(transport.stderrSince(session.stderrMark))}`
  }

  #describeCallFailure(tool: string, session: Session, error: unknown): string {
    const prefix = `MCP tool "${tool}" on server "${this.name}"`
    if (session.lost !== undefined && session.lost !== 'closed') {
      return this.#scrub(
        `${prefix} failed: the server stopped (${session.lost}); it restarts on the next call.`,
      )
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return this.#scrub(`${prefix} timed out: ${describeError(error)}`)
    }
    return this.#scrub(`${prefix} failed: ${describeError(error)}`)
  }
}

function newClient(): Client {
  const client = new Client(CLIENT_INFO, { capabilities: {} })
  // Transport errors surface through the request they break; out-of-band ones need no console noise.
  client.onerror = () => undefined
  return client
}

/** Runs the MCP handshake on a new session's transport, within the server's start deadline. */
async function initialize(session: Session, timeoutMs: number): Promise<Session> {
  await withDeadline(session.client.connect(session.transport, { timeout: timeoutMs }), {
    ms: timeoutMs,
    phase: 'initialize',
  })
  return session
}

async function closeSession(session: Session): Promise<void> {
  const { transport } = session
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
    // Tell the server it can drop the session; a server that does not answer does not hold us up.
    await withDeadline(transport.terminateSession(), { ms: TERMINATE_SESSION_MS, phase: 'DELETE' }).catch(
      () => undefined,
    )
  }
  await session.client.close().catch(() => undefined)
  // The client lets go of a transport that already closed itself; make sure the process is gone anyway.
  await transport.close().catch(() => undefined)
}

function isSessionGone(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404
  return /\(HTTP 404\)/.test(errorMessage(error))
}

/** An error's message with what the SDK keeps beside it: the HTTP status, the network error's code. */
function describeError(error: unknown): string {
  const message = errorMessage(error)
  if (error instanceof StreamableHTTPError && error.code !== undefined && error.code > 0) {
    return `HTTP ${error.code}: ${message}`
  }
  // undici says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND) is on its cause.
  const cause = error instanceof TypeError && message === 'fetch failed' ? error.cause : undefined
  if (!(cause instanceof Error)) return message
  const code = (cause as NodeJS.ErrnoException).code
  return `${message} (${typeof code === 'string' ? code : cause.message})`
}

function describeProcessExit(exit: { code: number | null; signal: NodeJS.Signals | null }): string {
  if (exit.signal !== null) return `was killed by ${exit.signal}`
  if (exit.code !== null) return `exited with code ${exit.code}`
  return 'ended'
}

function stderrNote(stderr: string): string {
  const tail = stderr.trim()
  if (tail === '') return ''
  const shown = tail.length > STDERR_IN_REASON_CHARS ? `…${tail.slice(-STDERR_IN_REASON_CHARS)}` : tail
  return `; stderr: ${shown}`
}

function definedEntries(env: NodeJS.ProcessEnv): Record<string, string> {
  const defined: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) defined[key] = value
  return defined
}
