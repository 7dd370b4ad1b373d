import { Client, type ResponseCacheStore } from '@modelcontextprotocol/client'
import type { ToolLogEntry } from '../tool/types.js'
import { VERSION } from '../version.js'
import { answerElicitation } from './answer-elicitation.js'
import type { ElicitationHandler, ElicitationMode } from './mcp-source.js'
import { type McpProtocolChoice, versionNegotiation } from './negotiate-era.js'
import { TASKS_EXTENSION } from './task-calls.js'

const CLIENT_INFO = { name: 'toolnexus', version: VERSION }
// Bounds a server that keeps asking for more input before it answers one request.
const MAX_INPUT_ROUNDS = 8
// A handler written for forms alone never sees a URL request unless the host opts in.
const DEFAULT_ELICITATION_MODES: readonly ElicitationMode[] = ['form']

/**
 * A fresh MCP client for one session: it negotiates the entry's protocol era, advertises elicitation
 * only when the host can answer it (form mode, and URL mode only when the host opted in), answers the
 * server's input requests of both eras through that one handler, and reports the server's tool list changes.
 */
export function createMcpClient(options: {
  server: string
  protocol: McpProtocolChoice
  transport: 'stdio' | 'streamable-http' | 'sse'
  onElicitation: ElicitationHandler | undefined
  /** The elicitation modes declared and answered. @default ['form'] */
  elicitationModes?: readonly ElicitationMode[] | undefined
  onToolListChanged: (client: Client) => void
  /** The server's log messages (`notifications/message`). */
  onLog?: ((entry: ToolLogEntry) => void) | undefined
  /** Kept by the connection across its sessions, so a reconnect inside a list's `ttlMs` does not list again. */
  cache: ResponseCacheStore
  /** The most pages one list may have. */
  listMaxPages: number
}): Client {
  const { server, onElicitation, onToolListChanged, onLog } = options
  const modes = options.elicitationModes ?? DEFAULT_ELICITATION_MODES
  const elicitation = Object.fromEntries(modes.map((mode) => [mode, {}]))
  // Elicitation is advertised only when the host can answer it: a server then knows not to ask. URL mode
  // (a page for the user to open, such as a payment) only when the host said it shows one. Tasks
  // are always: a call the server answers with a task is polled to its result.
  const client = new Client(CLIENT_INFO, {
    capabilities: {
      extensions: { [TASKS_EXTENSION]: {} },
      ...(onElicitation !== undefined && { elicitation }),
    },
    versionNegotiation: versionNegotiation(options.protocol, options.transport),
    // A 2026-07-28 server asks for input inside its answer; the elicitation handler below answers it
    // and the request is sent again, as a 2025 server's own elicitation/create request is answered.
    inputRequired: { autoFulfill: true, maxRounds: MAX_INPUT_ROUNDS },
    responseCacheStore: options.cache,
    listMaxPages: options.listMaxPages,
  })
  // Transport errors surface through the request they break; out-of-band ones need no console noise.
  client.onerror = () => undefined
  client.setNotificationHandler('notifications/tools/list_changed', () => onToolListChanged(client))
  if (onLog !== undefined) {
    client.setNotificationHandler('notifications/message', ({ params }) => {
      const entry: ToolLogEntry = { level: params.level, data: params.data }
      if (typeof params.logger === 'string') entry.logger = params.logger
      onLog(entry)
    })
  }
  if (onElicitation !== undefined) {
    client.setRequestHandler('elicitation/create', (request, context) =>
      answerElicitation({
        handler: onElicitation,
        modes,
        server,
        params: request.params,
        signal: context.mcpReq.signal,
      }),
    )
  }
  return client
}
