// toolnexus/postgres: conversations in PostgreSQL through node-postgres (`pg`, an optional peer
// dependency). Nothing here is reachable from the root entry.

export { StoreError, type StoreOperation } from '../errors.js'
export type {
  ConversationRecord,
  ConversationStore,
  StoredConversation,
} from '../stores/conversation-store.js'
export {
  createPostgresStore,
  type PostgresConnection,
  type PostgresConversationStore,
  type PostgresPoolLike,
  type PostgresStoreOptions,
  postgresStoreSchema,
} from '../stores/postgres-store.js'
