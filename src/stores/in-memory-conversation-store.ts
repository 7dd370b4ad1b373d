import type { ConversationStore } from './conversation-store.js'

/**
 * The default `ConversationStore`: conversations in a `Map`, for as long as the process lives. Keeps
 * copies, so a caller changing a returned array does not change what is stored.
 *
 * @example
 * const store = new InMemoryConversationStore<ModelMessage>()
 * const client = createClient({ model, store })
 * await client.ask('My name is Ada.', { id: 'user-1' })
 * await store.get('user-1') // the whole conversation
 */
export class InMemoryConversationStore<Message> implements ConversationStore<Message> {
  readonly #conversations = new Map<string, Message[]>()

  get(id: string): Message[] | undefined {
    const messages = this.#conversations.get(id)
    return messages === undefined ? undefined : [...messages]
  }

  save(id: string, messages: Message[]): void {
    this.#conversations.set(id, [...messages])
  }

  /** Forgets one conversation. */
  delete(id: string): void {
    this.#conversations.delete(id)
  }
}
