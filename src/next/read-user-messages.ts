import { toModelUserMessage, type UserContentPart } from '../conversation/user-message.js'
import { ConfigError } from '../errors.js'
import type { ChatClient, ChatUserMessage } from './chat-handler-options.js'
import type { UserMessages } from './chat-mode.js'
import { readUserContent } from './read-user-content.js'

/**
 * How the handler builds a browser's user message: with the client's own `userMessage` (every client
 * from `createClient` has one), else as AI SDK `ModelMessage`s. Nothing from the request decides it.
 *
 * @example
 * const userMessages = readUserMessages(client)
 */
export function readUserMessages<Message>(client: ChatClient<Message>): UserMessages<Message> {
  const build = (client as { userMessage?: unknown }).userMessage
  if (build !== undefined && typeof build !== 'function') {
    throw new ConfigError(
      '`client.userMessage` must be a function building a user message from text and file parts; a client from createClient has one.',
      { field: 'client' },
    )
  }
  const toMessage =
    build === undefined
      ? (toModelUserMessage as unknown as ChatUserMessage<Message>)
      : (parts: UserContentPart[]) => (build as ChatUserMessage<Message>).call(client, parts)
  return async (message) => {
    const parts = readUserContent(message)
    if (parts.length === 0) return []
    try {
      return [await toMessage(parts)]
    } catch (error) {
      if (!ConfigError.isInstance(error)) throw error
      return `A user message cannot go to the model: ${error.message}`
    }
  }
}
