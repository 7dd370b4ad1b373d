// How the chat routes keep a conversation, read from the environment at run time:
//   CHAT_MODE=store (default)  the server keeps the transcript (Redis when REDIS_URL is set, else memory)
//                              and the browser sends only its newest message;
//   CHAT_MODE=signed           the browser keeps the transcript; the server signs its answers with
//                              CHAT_SECRET (a random key per process when unset: fine for one instance).
//                              N instances share CHAT_SECRET and claim answered approvals in Redis
//                              (REDIS_URL), so an approval runs once whichever instance it reaches.
import type { ModelMessage } from 'ai'
import { type ClaimStore, type ConversationStore, InMemoryConversationStore } from 'toolnexus'
import { createRedisStore } from 'toolnexus/redis'

export type ChatMode = 'store' | 'signed'

export function chatMode(): ChatMode {
  return process.env.CHAT_MODE === 'signed' ? 'signed' : 'store'
}

/** The signing key of the signed mode: give every instance the same one. */
export function chatSecret(): string | undefined {
  return process.env.CHAT_SECRET || undefined
}

const TTL_SECONDS = 24 * 60 * 60

type ChatStore = ConversationStore<ModelMessage> & ClaimStore

// One store per server process (kept on globalThis so `next dev` reloads do not forget conversations).
const shared = globalThis as { chatStore?: ChatStore }

/**
 * Redis when REDIS_URL is set: every instance of the app sees every conversation. Otherwise memory,
 * which only one process can share.
 */
export function chatStore(): ChatStore {
  shared.chatStore ??= process.env.REDIS_URL
    ? createRedisStore({ url: process.env.REDIS_URL, ttlSeconds: TTL_SECONDS, keyPrefix: 'next-chat:' })
    : new InMemoryConversationStore<ModelMessage>({ ttlSeconds: TTL_SECONDS })
  return shared.chatStore
}

/**
 * Where the signed mode claims an answered approval: Redis, shared by every instance, when REDIS_URL is
 * set. Without it, none: one instance needs no claims store (its process guards itself), and a
 * CHAT_SECRET shared without one refuses to suspend a run, rather than let each instance run it again.
 */
export function chatClaims(): ClaimStore | undefined {
  return process.env.REDIS_URL ? chatStore() : undefined
}

/** Where the store mode keeps conversations, for the page. */
export function chatStoreLabel(): 'redis' | 'memory' {
  return process.env.REDIS_URL ? 'redis' : 'memory'
}
