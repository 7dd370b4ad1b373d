import { stat } from 'node:fs/promises'
import {
  type Client,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client'
import { Agent, fetch as undiciFetch } from 'undici'
import { errorMessage } from '../tool/tool-result.js'
import { boundedMcpFetch } from './bounded-mcp-fetch.js'
import { describeError, describeStartFailure } from './describe-mcp-failure.js'
import type { RemoteServerPlan, StdioServerPlan } from './mcp-server-plan.js'
import type { McpProtocolChoice } from './negotiate-era.js'
import { isOAuthChallenge, oauthSetupHint, shownOAuthFailure } from './oauth-challenge.js'
import type { McpTransportKind, Session } from './session.js'
import { StdioProcessTransport } from './stdio-process-transport.js'
import { interceptTaskAnswers } from './task-calls.js'
import type { ToolkitOAuthProvider } from './toolkit-oauth-provider.js'
import { withDeadline } from './with-deadline.js'

const STDERR_DRAIN_MS = 1000
const TERMINATE_SESSION_MS = 1000
// Statuses an endpoint answers with when it does not speak streamable HTTP but may speak SSE.
const SSE_FALLBACK_STATUSES = new Set([400, 404, 405])

/** What starting a session needs from its connection: a fresh client, a way to close a failed session, OAuth. */
export interface SessionStart {
  /** A client for a session over `transport`, negotiating `protocol` (the entry's own when not given). */
  newClient: (transport: McpTransportKind, protocol?: McpProtocolChoice) => Client
  /** Closes a session that did not start, in the background. */
  retire: (session: Session) => void
  /** The server's OAuth provider: for its `auth`, or (`challenged`) for a 401 OAuth challenge. */
  oauthProvider: (plan: RemoteServerPlan, challenged: boolean) => ToolkitOAuthProvider | undefined
}

/**
 * Starts a session with a server: a stdio process, or a remote endpoint over streamable HTTP that falls back
 * to SSE when the endpoint answers as one that does not speak it.
 */
export async function connectServer(
  plan: StdioServerPlan | RemoteServerPlan,
  start: SessionStart,
): Promise<Session> {
  if (plan.kind === 'stdio') return connectStdio(plan, start)
  if (plan.protocol === 'sse') return connectRemote(plan, 'sse', start)
  try {
    return await connectRemote(plan, 'streamable-http', start)
  } catch (error) {
    if (!(error instanceof SdkHttpError && SSE_FALLBACK_STATUSES.has(error.status))) throw error
    try {
      return await connectRemote(plan, 'sse', start)
    } catch (fallbackError) {
      throw new Error(
        `streamable HTTP failed (${describeError(error)}), and so did SSE (${describeError(fallbackError)})`,
        { cause: fallbackError },
      )
    }
  }
}

async function connectStdio(plan: StdioServerPlan, start: SessionStart): Promise<Session> {
  if (plan.cwd !== undefined) {
    const folder = await stat(plan.cwd).catch(() => undefined)
    if (!folder?.isDirectory()) throw new Error(`"cwd" ${plan.cwd} is not an existing folder`)
  }
  try {
    return await startStdio(plan, start, undefined)
  } catch (error) {
    // The era is asked on the server's own process (no second one is spawned to ask); a 2025 server
    // that exits on a request before `initialize` is started again and spoken to the 2025 way.
    if (!(error instanceof ProbeEndedProcess)) throw error
    return startStdio(plan, start, '2025-11-25')
  }
}

/** A stdio server that exited while it was asked which era it speaks. */
class ProbeEndedProcess extends Error {}

async function startStdio(
  plan: StdioServerPlan,
  start: SessionStart,
  protocol: McpProtocolChoice | undefined,
): Promise<Session> {
  const transport = new StdioProcessTransport({
    command: plan.command,
    args: plan.args,
    env: { ...definedEntries(process.env), ...plan.env },
    cwd: plan.cwd,
  })
  const session: Session = {
    client: start.newClient('stdio', protocol),
    transport,
    kind: 'stdio',
    lost: undefined,
    stderrMark: 0,
  }
  try {
    return await initialize(session, plan.timeoutMs)
  } catch (error) {
    // A process that has exited may still have stderr in the pipe; it is the best clue to why.
    if (transport.exit !== undefined) await transport.drained(STDERR_DRAIN_MS)
    start.retire(session)
    if (protocol === undefined && plan.protocolVersion === 'auto' && probeEndedProcess(error, transport)) {
      throw new ProbeEndedProcess('the server exited on server/discover', { cause: error })
    }
    throw new Error(describeStartFailure(plan, transport, error), { cause: error })
  }
}

function probeEndedProcess(error: unknown, transport: StdioProcessTransport): boolean {
  return (
    error instanceof SdkError &&
    error.code === SdkErrorCode.EraNegotiationFailed &&
    transport.exit !== undefined &&
    /server\/discover/.test(error.message)
  )
}

async function connectRemote(
  plan: RemoteServerPlan,
  kind: 'streamable-http' | 'sse',
  start: SessionStart,
): Promise<Session> {
  const requestInit: RequestInit = { headers: plan.headers }
  let authProvider = start.oauthProvider(plan, false)
  // With OAuth the first attempt may end in the authorization step: the host hands back a code, it is
  // exchanged for tokens, and the next attempt connects with them. An entry without `auth` whose server
  // answers with an OAuth challenge starts OAuth there, when the host can run it.
  for (let attempt = 1; ; attempt++) {
    // The session's requests go through a pool of its own, so closing it ends every socket it opened:
    // the ones a silent server holds (a request, an event stream) and the idle kept-alive ones.
    const sockets = new Agent()
    let challenged = false
    // Answers are read within the MCP message size limit, as a stdio server's output is.
    const fetch = boundedMcpFetch(async (url, init) => {
      const response = (await undiciFetch(url, {
        ...init,
        dispatcher: sockets,
      } as never)) as never as Response
      challenged ||= isOAuthChallenge(response)
      return response as never
    })
    const options = { requestInit, fetch, ...(authProvider === undefined ? {} : { authProvider }) }
    const transport =
      kind === 'sse'
        ? new SSEClientTransport(plan.url, options)
        : new StreamableHTTPClientTransport(plan.url, options)
    const session: Session = {
      client: start.newClient(kind),
      transport,
      kind,
      lost: undefined,
      stderrMark: 0,
      sockets,
    }
    try {
      return await initialize(session, plan.timeoutMs)
    } catch (error) {
      if (authProvider === undefined && challenged) {
        start.retire(session)
        authProvider = start.oauthProvider(plan, true)
        if (authProvider === undefined)
          throw new Error(oauthSetupHint(describeError(error)), { cause: error })
        continue
      }
      const callback = authProvider?.takeCallback()
      if (
        authProvider === undefined ||
        !(error instanceof UnauthorizedError) ||
        callback === undefined ||
        attempt > 2
      ) {
        start.retire(session)
        throw shownOAuthFailure(error, plan.name)
      }
      try {
        await withDeadline(redeem(transport, callback), { ms: plan.timeoutMs, phase: 'OAuth token request' })
      } catch (redeemError) {
        throw shownOAuthFailure(redeemError, plan.name)
      } finally {
        start.retire(session)
      }
    }
  }
}

/** Runs the MCP handshake on a new session's transport, within the server's start deadline. */
async function initialize(session: Session, timeoutMs: number): Promise<Session> {
  await withDeadline(session.client.connect(session.transport, { timeout: timeoutMs }), {
    ms: timeoutMs,
    phase: 'initialize',
  })
  interceptTaskAnswers(session.transport)
  return session
}

/** Ends a session: the server is told (a remote one), the process or sockets are closed. */
export async function closeSession(session: Session): Promise<void> {
  const { transport } = session
  await session.stopListening?.()
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
    // Tell the server it can drop the session; a server that does not answer does not hold us up.
    await withDeadline(transport.terminateSession(), { ms: TERMINATE_SESSION_MS, phase: 'DELETE' }).catch(
      () => undefined,
    )
  }
  await session.client.close().catch(() => undefined)
  // The client lets go of a transport that already closed itself; make sure the process is gone anyway.
  await transport.close().catch(() => undefined)
  // Whatever is still open (an aborted request's socket, an idle kept-alive one) is destroyed, not left
  // to the server's keep-alive timeout or to a server that never answers.
  await session.sockets?.destroy().catch(() => undefined)
}

/** True when a remote server answered that it no longer knows the session. */
export function isSessionGone(error: unknown): boolean {
  if (error instanceof SdkHttpError) return error.status === 404
  return /\(HTTP 404\)/.test(errorMessage(error))
}

function definedEntries(env: NodeJS.ProcessEnv): Record<string, string> {
  const defined: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) defined[key] = value
  return defined
}

/** Exchanges the code the host returned for an authorization the session asked for; false when there is none. */
export async function finishAuthorization(
  session: Session,
  oauth: ToolkitOAuthProvider | undefined,
  timeoutMs: number,
): Promise<boolean> {
  const { transport } = session
  if (!(transport instanceof StreamableHTTPClientTransport || transport instanceof SSEClientTransport)) {
    return false
  }
  const callback = oauth?.takeCallback()
  if (callback === undefined) return false
  await withDeadline(redeem(transport, callback), { ms: timeoutMs, phase: 'OAuth token request' }).catch(
    (error: unknown) => {
      throw shownOAuthFailure(error, oauth?.server ?? 'server')
    },
  )
  return true
}

/** Redeems the code of an authorization callback, once its `iss` is checked, for tokens. */
function redeem(
  transport: StreamableHTTPClientTransport | SSEClientTransport,
  callback: URLSearchParams,
): Promise<void> {
  return transport.finishAuth(callback)
}
