import type { Awaitable } from '../loop/types.js'

/** Where `client.ask` keeps conversations by id. */
export interface ConversationStore<Message> {
  get(id: string): Awaitable<Message[] | undefined>
  save(id: string, messages: Message[]): Awaitable<void>
}
