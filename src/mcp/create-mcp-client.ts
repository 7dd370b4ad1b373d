import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
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
}): Client {
  const { server, onElicitation, onToolListChanged } = options
  // Elicitation is advertised only when the host can answer it: a server then knows not to ask.
  const client = new Client(CLIENT_INFO, {
    capabilities: onElicitation === undefined ? {} : { elicitation: { form: {} } },
  })
  // Transport errors surface through the request they break; out-of-band ones need no console noise.
  client.onerror = () => undefined
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => onToolListChanged(client))
  if (onElicitation !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
      answerElicitation({ handler: onElicitation, server, params: request.params, signal: extra.signal }),
    )
  }
  return client
}
