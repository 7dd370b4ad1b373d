import type { Awaitable } from '../shared/awaitable.js'

/**
 * What a store keeps under one conversation id: the transcript, and the run that is waiting for a
 * person's approval, if any. Everything in it must survive `JSON.stringify` / `JSON.parse`, because the
 * database stores keep it as JSON text.
 *
 * @example
 * const record: ConversationRecord<ModelMessage> = { messages: result.messages }
 */
export interface ConversationRecord<Message> {
  /** The whole transcript, oldest first: what the next turn sends back to the model as history. */
  messages: Message[]
  /**
   * A suspended run kept with its conversation (a run's JSON `state`), so that any instance can resume
   * it. The store keeps it as given and never reads it.
   */
  suspended?: unknown
}

/**
 * A record as loaded, with the version it was loaded at. The version changes on every save; hand it back
 * to `save` as `expectedVersion` to write only if nobody saved in between.
 *
 * @example
 * const loaded = await store.load('user-1') // { messages, version: 3 } or undefined
 */
export interface StoredConversation<Message> extends ConversationRecord<Message> {
  /** A positive whole number that changes on every save. A conversation never saved has none (`0`). */
  version: number
}

/**
 * Where `client.ask` keeps conversations by id. A save is a compare-and-set: it writes only when the
 * conversation is still at the version the caller loaded, so two processes that answer the same
 * conversation at the same time cannot overwrite each other's turns. A store is responsible for making
 * that check and the write one atomic step in its database (a transaction, a conditional update, a
 * server-side script); the caller decides what to do on a conflict (`ask` merges, see `createClient`).
 * A save that fails writes nothing.
 *
 * `InMemoryConversationStore` is the default; `toolnexus/redis` and `toolnexus/postgres` keep
 * conversations in a database shared by every instance.
 *
 * @example
 * const loaded = await store.load('user-1')
 * const record = { messages: [...(loaded?.messages ?? []), ...newMessages] }
 * if (!(await store.save('user-1', record, loaded?.version ?? 0))) {
 *   // someone else saved first: load again and retry
 * }
 */
export interface ConversationStore<Message> {
  /** The conversation and its version, or `undefined` when there is none (or it expired). */
  load(id: string): Awaitable<StoredConversation<Message> | undefined>
  /**
   * Writes the record if the conversation is still at `expectedVersion` (`0`: it must not exist yet).
   * Resolves `true` when written, `false` when another save came first (nothing written).
   */
  save(id: string, record: ConversationRecord<Message>, expectedVersion: number): Awaitable<boolean>
  /** Forgets the conversation (no error when there is none). */
  delete(id: string): Awaitable<void>
}
