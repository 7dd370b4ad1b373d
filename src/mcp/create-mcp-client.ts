import {
  Client,
  type CreateMessageResult,
  type ElicitResult,
  type ListRootsResult,
  ProtocolError,
  ProtocolErrorCode,
  type ResponseCacheStore,
} from '@modelcontextprotocol/client'
import type { ToolLogEntry } from '../tool/types.js'
import { VERSION } from '../version.js'
import { answerElicitation } from './answer-elicitation.js'
import { forwardMidCall, type InFlight } from './forward-mid-call.js'
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
  /** A resource the session subscribed to changed (`notifications/resources/updated`). */
  onResourceUpdated?: ((client: Client, uri: string) => void) | undefined
  /** The server's log messages (`notifications/message`). */
  onLog?: ((entry: ToolLogEntry) => void) | undefined
  /** Kept by the connection across its sessions, so a reconnect inside a list's `ttlMs` does not list again. */
  cache: ResponseCacheStore
  /** The most pages one list may have. */
  listMaxPages: number
  /** The connection's requests in flight: a 2025 server's question mid-call goes to the caller of the one. */
  inFlight?: InFlight | undefined
  /** Declares elicitation, sampling and roots so that such questions reach a caller up the line. */
  forwardInput?: boolean | undefined
}): Client {
  const { server, onElicitation, onToolListChanged, onLog, inFlight } = options
  const forwarding = options.forwardInput === true && inFlight !== undefined
  const modes = options.elicitationModes ?? DEFAULT_ELICITATION_MODES
  const elicitation = Object.fromEntries(modes.map((mode) => [mode, {}]))
  // Elicitation is advertised only when the host can answer it: a server then knows not to ask. URL mode
  // (a page for the user to open, such as a payment) only when the host said it shows one. Tasks
  // are always: a call the server answers with a task is polled to its result.
  const client = new Client(CLIENT_INFO, {
    capabilities: {
      extensions: { [TASKS_EXTENSION]: {} },
      ...((onElicitation !== undefined || forwarding) && { elicitation }),
      ...(forwarding && { sampling: {}, roots: {} }),
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
  const { onResourceUpdated } = options
  if (onResourceUpdated !== undefined) {
    client.setNotificationHandler('notifications/resources/updated', ({ params }) =>
      onResourceUpdated(client, params.uri),
    )
  }
  if (onLog !== undefined) {
    client.setNotificationHandler('notifications/message', ({ params }) => {
      const entry: ToolLogEntry = { level: params.level, data: params.data }
      if (typeof params.logger === 'string') entry.logger = params.logger
      onLog(entry)
    })
  }
  // A question mid-call goes to the caller up the line when one can take it, else to the host's handler.
  const upTheLine = (method: string, params: unknown) =>
    inFlight === undefined ? undefined : forwardMidCall(inFlight, method, params as Record<string, unknown>)
  if (onElicitation !== undefined || forwarding) {
    client.setRequestHandler(
      'elicitation/create',
      (request, context) =>
        (upTheLine('elicitation/create', request.params) as Promise<ElicitResult> | undefined) ??
        (onElicitation === undefined
          ? Promise.resolve({ action: 'decline' as const })
          : answerElicitation({
              handler: onElicitation,
              modes,
              server,
              params: request.params,
              signal: context.mcpReq.signal,
            })),
    )
  }
  if (forwarding) {
    const nobody = (method: string) =>
      Promise.reject(
        new ProtocolError(ProtocolErrorCode.InvalidRequest, `No caller can answer ${method} now.`),
      )
    client.setRequestHandler(
      'sampling/createMessage',
      (request) =>
        (upTheLine('sampling/createMessage', request.params) as Promise<CreateMessageResult> | undefined) ??
        nobody('sampling/createMessage'),
    )
    client.setRequestHandler(
      'roots/list',
      (request) =>
        (upTheLine('roots/list', request.params) as Promise<ListRootsResult> | undefined) ??
        nobody('roots/list'),
    )
  }
  return client
}
