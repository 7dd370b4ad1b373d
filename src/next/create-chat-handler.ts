// The drop-in `POST` for a Next.js App Router route that `useChat` talks to. Web APIs and `ai` only: the
// same handler runs on the Node and the edge runtime.
//
// It faces browsers, so it trusts no history a client sends. Two modes:
// - store mode (`store`): the server keeps the transcript by chat id; a request adds only its new user
//   message, whatever else the body carries;
// - signed stateless mode (no store): every answer streamed ends with its own model messages, signed
//   (HMAC-SHA256, `secret`); on the next request an assistant message counts only through that signed
//   transcript, and one without a valid signature is left out.
// In both, client `system` messages are dropped and client `providerMetadata` never reaches a provider.
//
// Generic over the client's message type: AI SDK `ModelMessage`s, or Gemini `Content`s for a
// `@google/genai` client. The client builds each user message (`client.userMessage`); the handler's
// `system` goes to the run as its `system` option, so Gemini gets it as `systemInstruction`.
import type { ModelMessage } from 'ai'
import type { RunOptions } from '../contracts/run-types.js'
import { ApprovalError, ConfigError, StoreError } from '../errors.js'
import { consoleLogger } from '../shared/logger.js'
import { errorMessage } from '../tool/tool-result.js'
import type { Toolkit } from '../toolkit/create-toolkit.js'
import { toUIMessageStreamResponse } from '../ui/to-ui-message-stream-response.js'
import type { ChatHandler, ChatHandlerOptions, ToolkitSource } from './chat-handler-options.js'
import type { Conversation, Resumption } from './chat-mode.js'
import { readApprovalAnswers, showsWorkingTask } from './read-approval-answers.js'
import { readChatMode } from './read-chat-mode.js'
import { readChatLimits, readChatRequest } from './read-chat-request.js'

/**
 * Makes the `POST` handler of a chat route: reads `useChat`'s body within `limits`, builds the
 * transcript the model sees — from the `store` by chat id (store mode), or from the client's history
 * where only user messages and the assistant answers this server signed count (signed stateless mode) —
 * runs `client.stream` with the toolkit and `system`, and answers with the AI SDK UI message stream. A
 * body that is not `useChat`'s gets a 400 (413 when too large) with a JSON `{ error }` saying what is
 * wrong; a client that disconnects aborts the run.
 *
 * Works with both clients, in their own message types: over an AI SDK model the transcript is
 * `ModelMessage`s; with `createClient({ genai, model })` it is Gemini `Content`s (thought signatures
 * kept), the browser's files become `inlineData` / `fileData` parts, `system` reaches Gemini as
 * `systemInstruction`, and a store holds `GenAIMessage`s.
 *
 * @example
 * // app/api/chat/route.ts
 * import { createClient, createToolkit, type Toolkit } from 'toolnexus'
 * import { createChatHandler } from 'toolnexus/next'
 * // Made on the first request, not at import: `next build` imports the route, and would start the MCP servers.
 * let toolkit: Promise<Toolkit> | undefined
 * export const POST = createChatHandler({
 *   client: createClient({ model: 'openai/gpt-5-mini' }),
 *   toolkit: () => (toolkit ??= createToolkit({ mcpConfig: 'mcp.json' })),
 *   secret: process.env.CHAT_SECRET,
 * })
 */
export function createChatHandler(options: ChatHandlerOptions<ModelMessage>): ChatHandler
/**
 * The handler for a client of any message type: a genai client's (Gemini `Content`s, its store a
 * `ConversationStore<GenAIMessage>`), or a hand-written `ChatClient<Message>` with its `userMessage`.
 *
 * @example
 * export const POST = createChatHandler({ client: createClient({ genai, model: 'gemini-2.5-flash' }), toolkit })
 */
export function createChatHandler<Message>(options: ChatHandlerOptions<Message>): ChatHandler
export function createChatHandler<Message>(options: ChatHandlerOptions<Message>): ChatHandler {
  if (typeof options !== 'object' || options === null || typeof options.client?.stream !== 'function') {
    throw new ConfigError(
      'createChatHandler needs { client }, a client from createClient({ model }), like createChatHandler({ client, toolkit }).',
    )
  }
  const { client, system, onError, logger = consoleLogger } = options
  if (system !== undefined && typeof system !== 'string') {
    throw new ConfigError('`system` must be a string (the system prompt).', { field: 'system' })
  }
  const limits = readChatLimits(options.limits)
  const mode = readChatMode({ options, client, logger, limits })

  return async (request) => {
    const reading = await readChatRequest(request, limits)
    if (!reading.ok) return jsonError(reading.status, reading.error)
    const chat = reading.request
    const last = chat.messages.at(-1)
    // The request `useChat` sends after `addToolApprovalResponse` (the answered assistant message last),
    // or after `sendMessage()` while a call runs as an MCP task (the message showing it last).
    const approvals = last?.role === 'assistant' ? readApprovalAnswers(last) : []
    const resuming = last?.role === 'assistant' && (approvals.length > 0 || showsWorkingTask(last))
    if (last?.role !== 'user' && !resuming) {
      return jsonError(
        400,
        `The last message must be the user's (role "user"), not ${JSON.stringify(last?.role)}: it is what the model answers.`,
      )
    }

    let toolkit: Toolkit | undefined
    try {
      toolkit = await resolveToolkit(options.toolkit, request)
    } catch (error) {
      return jsonError(500, `The toolkit could not be created: ${errorMessage(error)}`)
    }

    // Passed as is: the loop checks a signal by its shape, so one from the edge runtime's realm works.
    const signal = request.signal
    const runOptions: RunOptions<Message> = { signal }
    if (toolkit !== undefined) runOptions.toolkit = toolkit
    if (system !== undefined && system !== '') runOptions.system = system
    const streamInit = { signal, ...(onError === undefined ? {} : { onError }) }

    if (resuming && last !== undefined) {
      if (typeof client.resumeStream !== 'function') {
        return jsonError(400, 'This chat client cannot resume runs: pass one from createClient({ model }).')
      }
      let resumption: Resumption<Message> | string
      try {
        resumption = await mode.resumption({ chat, request, message: last, approvals })
      } catch (error) {
        if (ApprovalError.isInstance(error)) return jsonError(409, error.message)
        if (!StoreError.isInstance(error)) throw error
        logger.warn(error.message)
        return jsonError(
          503,
          `The conversation store is unavailable (its ${error.operation} failed). Try again later.`,
        )
      }
      if (typeof resumption === 'string') return jsonError(409, resumption)
      const events = client.resumeStream(resumption.state, { ...runOptions, approvals })
      return toUIMessageStreamResponse(events, { ...streamInit, messageMetadata: resumption.finish })
    }

    let conversation: Conversation<Message> | string | { tooLarge: string }
    try {
      conversation = await mode.conversation({ chat, request })
    } catch (error) {
      if (!StoreError.isInstance(error)) throw error
      // A StoreError's message names the operation and the conversation, never a URL or a password.
      logger.warn(error.message)
      return jsonError(
        503,
        `The conversation store is unavailable (its ${error.operation} failed). Try again later.`,
      )
    }
    if (typeof conversation === 'string') return jsonError(400, conversation)
    if ('tooLarge' in conversation) return jsonError(413, conversation.tooLarge)

    const prompt = conversation.messages
    const events = client.stream(prompt, runOptions)
    const finish = conversation.finish
    return toUIMessageStreamResponse(events, {
      ...streamInit,
      messageMetadata: (result) => finish(result.messages.slice(prompt.length), result),
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

function jsonError(status: number, error: string): Response {
  return Response.json({ error }, { status })
}
