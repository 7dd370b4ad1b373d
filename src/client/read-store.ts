import { ConfigError } from '../errors.js'
import type { ConversationStore } from '../stores/conversation-store.js'
import { InMemoryConversationStore } from '../stores/in-memory-conversation-store.js'

/**
 * Reads the `store` option: a conversation store, checked, or a new in-memory one.
 *
 * @example
 * const store = readStore(options.store)
 */
export function readStore<Message>(
  store: ConversationStore<Message> | undefined,
): ConversationStore<Message> {
  if (store === undefined) return new InMemoryConversationStore<Message>()
  if (
    typeof store?.load !== 'function' ||
    typeof store.save !== 'function' ||
    typeof store.delete !== 'function'
  ) {
    throw new ConfigError(
      '`store` must have load(id), save(id, record, expectedVersion) and delete(id), like new InMemoryConversationStore() or createRedisStore({ url }) from toolnexus/redis. A store with get(id) and save(id, messages), the form of the other toolnexus ports, goes through fromGetSaveStore(store): it has no compare-and-set, so two instances answering one conversation at the same moment can overwrite the turn of the other.',
      { field: 'store' },
    )
  }
  return store
}
