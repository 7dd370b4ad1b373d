import type { Client, McpSubscription } from '@modelcontextprotocol/client'
import { describeError } from './describe-mcp-failure.js'

// A stream the server ended unexpectedly is opened again after this pause (once per end).
const RELISTEN_DELAY_MS = 1000

/**
 * On a 2026-07-28 connection, opens a `subscriptions/listen` stream for tool list changes; the changes it
 * carries reach the same `notifications/tools/list_changed` handler a 2025 server's unsolicited ones do.
 * A stream the server ends unexpectedly is opened again (and the tools listed again, for what changed in
 * between); when that fails the session is given up, so the next call reconnects. A 2025 connection, or a
 * server that does not announce changes, needs nothing. Returns what stops listening.
 *
 * @example
 * const stop = listenForToolChanges({ client, timeoutMs, isCurrent, onReopened, onLost })
 * await stop()
 */
export function listenForToolChanges(options: {
  client: Client
  timeoutMs: number
  /** False once the session is no longer the connection's live one. */
  isCurrent: () => boolean
  /** The stream was opened again after an unexpected end. */
  onReopened: () => void
  onLost: (reason: string) => void
}): () => Promise<void> {
  const { client, timeoutMs, isCurrent, onReopened, onLost } = options
  if (client.getProtocolEra() !== 'modern' || client.getServerCapabilities()?.tools?.listChanged !== true) {
    return () => Promise.resolve()
  }
  let stopped = false
  let subscription: McpSubscription | undefined
  const live = () => !stopped && isCurrent()
  const open = async (again: boolean): Promise<void> => {
    try {
      subscription = await client.listen({ toolsListChanged: true }, { timeout: timeoutMs })
    } catch (error) {
      if (live()) onLost(`subscriptions/listen failed: ${describeError(error)}`)
      return
    }
    if (again && live()) onReopened()
    const end = await subscription.closed
    if (end !== 'remote' || !live()) return
    await new Promise((resolve) => setTimeout(resolve, RELISTEN_DELAY_MS).unref())
    if (live()) await open(true)
  }
  void open(false)
  return async () => {
    stopped = true
    await subscription?.close().catch(() => undefined)
  }
}
