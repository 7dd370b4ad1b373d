import type { Tool as McpTool } from '@modelcontextprotocol/client'
import type { ToolLogEntry } from '../tool/types.js'
import type { ElicitationHandler, ElicitationMode } from './mcp-source.js'
import type { OAuthOptions, OAuthTokenStore } from './oauth-options.js'
import type { McpTransportKind } from './session.js'

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

/**
 * What a connection is told besides its plan: how to answer a server's elicitation requests, and where
 * tool list changes and warnings go.
 */
export interface ConnectionOptions {
  /** Answers `elicitation/create` (form mode); without it the client does not advertise elicitation. */
  onElicitation?: ElicitationHandler
  /** The elicitation modes declared to the server (with `onElicitation`). @default ['form'] */
  elicitationModes?: readonly ElicitationMode[]
  /**
   * Declares elicitation, sampling and roots to the server, so that a 2025-era server's questions mid-call
   * reach the caller of a gateway serving the toolkit (see `createToolkit`'s `forwardMcpInput`).
   */
  forwardInput?: boolean
  /** A new tool list, after `notifications/tools/list_changed` or a reconnect. */
  onToolsChanged?: (tools: readonly McpTool[]) => void
  onWarning?: (message: string) => void
  /** The server's log messages (`notifications/message`). */
  onLog?: (entry: ToolLogEntry) => void
  /** The host's OAuth pieces (redirect handler), for servers whose entry has `auth`. */
  oauth?: OAuthOptions
  /** Where this connection's OAuth tokens are kept; shared by the toolkit's servers. */
  tokenStore?: OAuthTokenStore
}
