// The drop-in `POST` for a Next.js App Router route that `useChat` talks to. Web APIs and `ai` only: the
// same handler runs on the Node and the edge runtime.
import { convertToModelMessages, type ModelMessage, type UIMessage, validateUIMessages } from 'ai'
import type { RunEvent, RunOptions } from '../loop/types.js'
import { isRecord } from '../shared/is-record.js'
import { errorMessage } from '../tool/tool-result.js'
import type { Toolkit } from '../toolkit/create-toolkit.js'
import { toUIMessageStreamResponse } from '../ui/to-ui-message-stream.js'

/**
 * What the handler needs of a client: `createClient({ model })` over an AI SDK model is one.
 *
 * @example
 * const client: ChatClient = createClient({ model: openai('gpt-5-mini') })
 */
export interface ChatClient {
  stream(messages: ModelMessage[], options: RunOptions<ModelMessage>): AsyncIterable<RunEvent<ModelMessage>>
}

/**
 * The toolkit, or a way to get it: a promise, or a function called on each request.
 *
 * @example
 * let shared: Promise<Toolkit> | undefined
 * const toolkit: ToolkitSource = () => (shared ??= createToolkit({ mcpConfig: 'mcp.json' }))
 */
export type ToolkitSource =
  | Toolkit
  | PromiseLike<Toolkit>
  | ((request: Request) => Toolkit | PromiseLike<Toolkit>)

/**
 * What `createChatHandler` takes.
 *
 * @example
 * const options: ChatHandlerOptions = { client, toolkit: getToolkit, system: 'Answer in French.' }
 */
export interface ChatHandlerOptions {
  /** Runs the conversation: `createClient({ model })`. */
  client: ChatClient
  /**
   * The tools. A function is called on every request (return a cached promise to share one toolkit, or
   * build one per user from the request); it keeps `next build` from starting MCP servers at import.
   */
  toolkit?: ToolkitSource
  /** A system message put before the conversation (besides the client's own `system`). */
  system?: string
  /** The text the browser sees when the run fails. Default: the error's message. */
  onError?: (error: unknown) => string
}

/** The body `useChat` sends (`DefaultChatTransport`). */
interface ChatRequestBody {
  id?: string
  messages: UIMessage[]
  trigger?: 'submit-message' | 'regenerate-message'
}

const EXPECTED =
  'Expected the body useChat sends: { id: string, messages: UIMessage[], trigger: "submit-message" | "regenerate-message" }.'
const ROLES = new Set(['system', 'user', 'assistant'])

/**
 * Makes the `POST` handler of a chat route: reads `useChat`'s body, converts its UI messages (earlier tool
 * calls and results included) with the AI SDK's `convertToModelMessages`, runs `client.stream` with the
 * toolkit, and answers with the AI SDK UI message stream. A body that is not `useChat`'s gets a 400 with a
 * JSON `{ error }` saying what is wrong; a client that disconnects aborts the run.
 *
 * @example
 * // app/api/chat/route.ts
 * import { createClient, createToolkit } from 'toolnexus'
 * import { createChatHandler } from 'toolnexus/next'
 * const toolkit = createToolkit({ mcpConfig: 'mcp.json' })
 * export const POST = createChatHandler({ client: createClient({ model: 'openai/gpt-5-mini' }), toolkit: () => toolkit })
 */
export function createChatHandler(options: ChatHandlerOptions): (request: Request) => Promise<Response> {
  const { client, system, onError } = options
  return async (request) => {
    const parsed = await readChatRequest(request)
    if (typeof parsed === 'string') return jsonError(400, parsed)

    let messages: ModelMessage[]
    try {
      messages = await convertToModelMessages(parsed.messages)
    } catch (error) {
      return jsonError(400, `The messages cannot be converted for the model: ${errorMessage(error)}`)
    }
    if (system !== undefined && system !== '') messages = [{ role: 'system', content: system }, ...messages]

    let toolkit: Toolkit | undefined
    try {
      toolkit = await resolveToolkit(options.toolkit, request)
    } catch (error) {
      return jsonError(500, `The toolkit could not be created: ${errorMessage(error)}`)
    }

    // Passed as is: the loop checks a signal by its shape, so one from the edge runtime's realm works.
    const signal = request.signal
    const runOptions: RunOptions<ModelMessage> = { signal }
    if (toolkit !== undefined) runOptions.toolkit = toolkit
    const events = client.stream(messages, runOptions)
    return toUIMessageStreamResponse(events, {
      signal,
      ...(onError === undefined ? {} : { onError }),
    })
  }
}

async function resolveToolkit(
  source: ToolkitSource | undefined,
  request: Request,
): Promise<Toolkit | undefined> {
  if (typeof source === 'function') return await source(request)
  return await source
}

/** The request's body as useChat's, or the reason it is not. */
async function readChatRequest(request: Request): Promise<ChatRequestBody | string> {
  let body: unknown
  try {
    body = await request.json()
  } catch (error) {
    return `The request body is not JSON (${errorMessage(error)}). ${EXPECTED}`
  }
  if (!isRecord(body)) return `The request body is not an object. ${EXPECTED}`
  const { id, messages, trigger } = body
  if (id !== undefined && typeof id !== 'string') return `"id" must be a string. ${EXPECTED}`
  if (trigger !== undefined && !isTrigger(trigger)) {
    return `"trigger" must be "submit-message" or "regenerate-message", not ${JSON.stringify(trigger)}. ${EXPECTED}`
  }
  if (!Array.isArray(messages)) return `"messages" must be an array of UI messages. ${EXPECTED}`
  if (messages.length === 0) return `"messages" is empty: there is nothing to answer. ${EXPECTED}`
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) return `messages[${index}] is not an object. ${EXPECTED}`
    if (typeof message.role !== 'string' || !ROLES.has(message.role)) {
      return `messages[${index}].role must be "system", "user" or "assistant", not ${JSON.stringify(message.role)}.`
    }
    if (!Array.isArray(message.parts)) {
      return `messages[${index}].parts must be an array (UI messages of ai 5 and later; "content" strings are the older format).`
    }
  }
  try {
    // The AI SDK's own check of every part; it answers with the path of the first bad field.
    const validated = await validateUIMessages({ messages })
    return {
      messages: validated,
      ...(id === undefined ? {} : { id }),
      ...(trigger === undefined ? {} : { trigger }),
    }
  } catch (error) {
    return `The messages are not valid UI messages: ${errorMessage(error)}`
  }
}

function isTrigger(value: unknown): value is NonNullable<ChatRequestBody['trigger']> {
  return value === 'submit-message' || value === 'regenerate-message'
}

function jsonError(status: number, error: string): Response {
  return Response.json({ error }, { status })
}
