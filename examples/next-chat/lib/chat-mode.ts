// How the chat routes keep a conversation, read from the environment at run time:
//   CHAT_MODE=store (default)  the server keeps the transcript (Redis when REDIS_URL is set, else memory)
//                              and the browser sends only its newest message;
//   CHAT_MODE=signed           the browser keeps the transcript; the server signs its answers with
//                              CHAT_SECRET (a random key per process when unset: fine for one instance).
import type { ModelMessage } from 'ai'
import { type ConversationStore, InMemoryConversationStore } from 'toolnexus'

export type ChatMode = 'store' | 'signed'

export function chatMode(): ChatMode {
  return process.env.CHAT_MODE === 'signed' ? 'signed' : 'store'
}

/** The signing key of the signed mode: give every instance the same one. */
export function chatSecret(): string | undefined {
  return process.env.CHAT_SECRET || undefined
}

// One store per server process (kept on globalThis so `next dev` reloads do not forget conversations).
const shared = globalThis as { chatStore?: ConversationStore<ModelMessage> }

export function chatStore(): ConversationStore<ModelMessage> {
  shared.chatStore ??= new InMemoryConversationStore<ModelMessage>({ ttlSeconds: 24 * 60 * 60 })
  return shared.chatStore
}

/** What the page shows about the Node route's mode. */
export function chatModeLabel(): string {
  return chatMode() === 'store' ? 'store mode · memory' : 'signed stateless mode'
}
