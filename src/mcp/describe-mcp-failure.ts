import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client'
import { errorMessage } from '../tool/tool-result.js'
import type { StdioServerPlan } from './mcp-server-plan.js'
import type { Session } from './session.js'
import { StdioProcessTransport } from './stdio-process-transport.js'
import { PhaseTimeoutError } from './with-deadline.js'

const STDERR_IN_REASON_CHARS = 600
const MAX_SAID_CHARS = 600

/** An error's message with what the SDK keeps beside it: the HTTP status, the network error's code. */
export function describeError(error: unknown): string {
  // A failed era probe wraps what went wrong (a refused connection): that is the reason to show.
  if (
    error instanceof SdkError &&
    error.code === SdkErrorCode.EraNegotiationFailed &&
    error.cause !== undefined
  ) {
    if (!(error instanceof SdkHttpError)) return describeError(error.cause)
  }
  const message = errorMessage(error)
  if (error instanceof SdkHttpError && error.status > 0) {
    // What the server said with the status (its own error text), when the message does not carry it.
    const said = typeof error.data.text === 'string' ? error.data.text.trim().slice(0, MAX_SAID_CHARS) : ''
    const body = said !== '' && !message.includes(said) ? `: ${said}` : ''
    return `HTTP ${error.status}: ${message}${body}`
  }
  // undici says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND) is on its cause.
  const cause = error instanceof TypeError && message === 'fetch failed' ? error.cause : undefined
  if (!(cause instanceof Error)) return message
  const code = (cause as NodeJS.ErrnoException).code
  return `${message} (${typeof code === 'string' ? code : cause.message})`
}

/**
 * True when the error is the server's own answer (a JSON-RPC error) or a request it took and did not
 * answer in time: the session still stands. Anything else (a network error, an HTTP failure) means the
 * request may never have reached the server.
 */
export function serverAnswered(error: unknown): boolean {
  if (error instanceof ProtocolError) return true
  if (error instanceof SdkHttpError) return false
  return (
    error instanceof SdkError &&
    error.code !== SdkErrorCode.SendFailed &&
    error.code !== SdkErrorCode.ConnectionClosed &&
    error.code !== SdkErrorCode.NotConnected
  )
}

/** Why a stdio server did not start: a missing or non-executable command, its exit, or the failed handshake. */
export function describeStartFailure(
  plan: StdioServerPlan,
  transport: StdioProcessTransport,
  error: unknown,
): string {
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
  // A failed era negotiation is why the process was ended, not the other way round.
  const negotiation = error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed
  const what =
    error instanceof PhaseTimeoutError || negotiation
      ? errorMessage(error)
      : exit !== undefined
        ? `the process ${describeProcessExit(exit)} before it finished initializing`
        : `initialize failed: ${describeError(error)}`
  return `${what}${stderrNote(transport.stderrTail)}`
}

/** Why a session closed: a stdio process's exit and what it wrote to stderr since it started. */
export function describeExit(session: Session): string {
  const { transport } = session
  if (!(transport instanceof StdioProcessTransport)) return 'the connection closed'
  const exit = transport.exit
  const what = exit === undefined ? 'the connection closed' : `the process ${describeProcessExit(exit)}`
  return `${what}${stderrNote(transport.stderrSince(session.stderrMark))}`
}

/** Why a tool call failed, for its error result (the caller masks the server's secrets in it). */
export function describeCallFailure(options: {
  server: string
  tool: string
  session: Session
  error: unknown
}): string {
  const { server, tool, session, error } = options
  const prefix = `MCP tool "${tool}" on server "${server}"`
  if (session.lost !== undefined && session.lost !== 'closed') {
    return `${prefix} failed: the server stopped (${session.lost}); it restarts on the next call.`
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return `${prefix} timed out: ${describeError(error)}`
  }
  return `${prefix} failed: ${describeError(error)}`
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
