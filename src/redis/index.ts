// toolnexus/redis: conversations in Redis through node-redis (`redis`, an optional peer dependency).
// Nothing here is reachable from the root entry.

export { StoreError, type StoreOperation } from '../errors.js'
export type {
  ConversationRecord,
  ConversationStore,
  StoredConversation,
} from '../stores/conversation-store.js'
export {
  createRedisStore,
  type RedisClientLike,
  type RedisConnection,
  type RedisConversationStore,
  type RedisStoreOptions,
} from '../stores/redis-store.js'
