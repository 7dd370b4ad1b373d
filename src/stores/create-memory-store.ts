import {
  InMemoryConversationStore,
  type InMemoryConversationStoreOptions,
} from './in-memory-conversation-store.js'

/**
 * A conversation and claim store in this process's memory, beside `createRedisStore` and
 * `createPostgresStore`: what `createClient` uses when given no `store`. Enough for one instance; N
 * instances need a shared database.
 *
 * @example
 * const store = createMemoryStore<ModelMessage>({ ttlSeconds: 3600 })
 * const client = createClient({ model, store })
 */
export function createMemoryStore<Message>(
  options: InMemoryConversationStoreOptions = {},
): InMemoryConversationStore<Message> {
  return new InMemoryConversationStore<Message>(options)
}
