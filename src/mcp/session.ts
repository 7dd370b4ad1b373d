import type { Client, Transport } from '@modelcontextprotocol/client'
import type { Agent } from 'undici'

/**
 * How a connected server is spoken to.
 *
 * @example
 * const kind: McpTransportKind = 'streamable-http'
 */
export type McpTransportKind = 'stdio' | 'streamable-http' | 'sse'

/** One live connection to a server: its client, its transport, and what is known of its end. */
export interface Session {
  client: Client
  transport: Transport
  kind: McpTransportKind
  /** Set when the transport closed under us (the process exited, the session was lost). */
  lost: string | undefined
  /** How much stderr the process had written when the session became usable; later output explains a crash. */
  stderrMark: number
  /** A remote session's own connection pool: closing the session ends every socket it opened. */
  sockets?: Agent
  /** Ends the session's change subscription (2026-07-28 connections). */
  stopListening?: () => Promise<void>
}
