import { type ElicitResult, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client'
import { isRecord } from '../shared/is-record.js'
import type { JSONSchema } from '../tool/types.js'
import { validateArgs } from '../tool/validate-args.js'
import type { ElicitationHandler, ElicitationMode } from './mcp-source.js'

/**
 * Answers a server's `elicitation/create` (or a 2026-07-28 server's input request, which carries the same
 * params) through the host's handler. In form mode a field the user left out takes the server's default,
 * and an answer that does not fit the requested schema is refused as invalid params; in URL mode the
 * handler is given the page to open and an accept carries no content. A request in a mode the client did
 * not declare (a server that ignores the capabilities) is declined without asking the handler.
 */
export async function answerElicitation(options: {
  handler: ElicitationHandler
  /** The modes the client declared. */
  modes: readonly ElicitationMode[]
  server: string
  params: { message: string; mode?: string | undefined; requestedSchema?: unknown; url?: unknown }
  signal: AbortSignal
}): Promise<ElicitResult> {
  const { handler, server, params, signal } = options
  const mode: ElicitationMode = params.mode === 'url' ? 'url' : 'form'
  if (!options.modes.includes(mode)) return { action: 'decline' }
  if (mode === 'url') {
    const url = typeof params.url === 'string' ? params.url : ''
    const answer = await handler({
      server,
      message: params.message,
      mode: 'url',
      url,
      requestedSchema: {},
      signal,
    })
    return { action: answer.action }
  }
  const requestedSchema = (isRecord(params.requestedSchema) ? params.requestedSchema : {}) as JSONSchema
  const answer = await handler({ server, message: params.message, mode: 'form', requestedSchema, signal })
  if (answer.action !== 'accept') return { action: answer.action }
  // A field the user left out takes the default the server gave for it.
  const content: Record<string, unknown> = { ...defaultsOf(requestedSchema), ...(answer.content ?? {}) }
  const problem = validateArgs(requestedSchema, content)
  if (problem !== undefined) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `The answer does not fit the requested schema: ${problem}`,
    )
  }
  return { action: 'accept', content: content as NonNullable<ElicitResult['content']> }
}

/** The `default` of each property of an elicitation's requested schema. */
function defaultsOf(schema: JSONSchema): Record<string, unknown> {
  const defaults: Record<string, unknown> = {}
  if (!isRecord(schema.properties)) return defaults
  for (const [key, property] of Object.entries(schema.properties)) {
    if (isRecord(property) && property.default !== undefined) defaults[key] = property.default
  }
  return defaults
}
