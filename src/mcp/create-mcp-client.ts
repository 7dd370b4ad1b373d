import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js'
import type { ToolLogEntry } from '../tool/types.js'
import { VERSION } from '../version.js'
import { answerElicitation } from './answer-elicitation.js'
import type { ElicitationHandler } from './mcp-source.js'

const CLIENT_INFO = { name: 'toolnexus', version: VERSION }

/**
 * A fresh MCP client for one session: it advertises elicitation only when the host can answer it, and
 * reports the server's tool list changes.
 */
export function createMcpClient(options: {
  server: string
  onElicitation: ElicitationHandler | undefined
  onToolListChanged: (client: Client) => void
  /** The server's log messages (`notifications/message`). */
  onLog?: (entry: ToolLogEntry) => void
}): Client {
  const { server, onElicitation, onToolListChanged, onLog } = options
  // Elicitation is advertised only when the host can answer it: a server then knows not to ask.
  const client = new Client(CLIENT_INFO, {
    capabilities: onElicitation === undefined ? {} : { elicitation: { form: {} } },
  })
  // Transport errors surface through the request they break; out-of-band ones need no console noise.
  client.onerror = () => undefined
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => onToolListChanged(client))
  if (onLog !== undefined) {
    client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
      const entry: ToolLogEntry = { level: params.level, data: params.data }
      if (typeof params.logger === 'string') entry.logger = params.logger
      onLog(entry)
    })
  }
  if (onElicitation !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
      answerElicitation({ handler: onElicitation, server, params: request.params, signal: extra.signal }),
    )
  }
  return client
}
