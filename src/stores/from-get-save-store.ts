import type { Awaitable } from '../shared/awaitable.js'
import { checkVersion } from './check-version.js'
import type { ConversationRecord, ConversationStore, StoredConversation } from './conversation-store.js'

/**
 * A conversation store in the shape the other toolnexus ports use: the transcript by id, read and
 * overwritten whole. `delete` is optional.
 *
 * @example
 * const files: GetSaveStore<ModelMessage> = {
 *   get: async (id) => JSON.parse(await readFile(`${id}.json`, 'utf8')),
 *   save: async (id, messages) => writeFile(`${id}.json`, JSON.stringify(messages)),
 * }
 */
export interface GetSaveStore<Message> {
  /** The transcript, or `undefined` (or `null`) when there is none. */
  get(id: string): Awaitable<Message[] | undefined | null>
  /** Overwrites the transcript. */
  save(id: string, messages: Message[]): Awaitable<unknown>
  /** Forgets the conversation; without it, `delete` saves an empty transcript. */
  delete?(id: string): Awaitable<unknown>
}

/**
 * Adapts a `get` / `save` store (the other toolnexus ports' shape) to a `ConversationStore`, so that
 * `createClient({ store })` takes it. Such a store has no compare-and-set: the adapter reads the
 * conversation again before each save and refuses the save when it changed since it was loaded (`ask`
 * then appends its turn after what is there), but two saves landing at the same moment can still
 * overwrite each other, and a run waiting for approval is kept in this process only. For N instances,
 * use `toolnexus/redis` or `toolnexus/postgres`.
 *
 * @example
 * const client = createClient({ model, store: fromGetSaveStore(myOldStore) })
 * await client.ask('My name is Ada.', { id: 'user-1' })
 */
export function fromGetSaveStore<Message>(store: GetSaveStore<Message>): ConversationStore<Message> {
  // The store keeps messages only, so a waiting run lives here, beside the version it was saved at.
  const suspended = new Map<string, { version: number; state: unknown }>()
  const read = async (id: string): Promise<{ messages: Message[]; version: number } | undefined> => {
    const messages = await store.get(id)
    // An empty transcript is none: it is what `delete` leaves in a store that cannot delete.
    if (messages === undefined || messages === null || messages.length === 0) return undefined
    return { messages, version: versionOf(messages) }
  }
  return {
    async load(id: string): Promise<StoredConversation<Message> | undefined> {
      const current = await read(id)
      if (current === undefined) return undefined
      const waiting = suspended.get(id)
      return waiting?.version === current.version ? { ...current, suspended: waiting.state } : current
    },
    async save(id: string, record: ConversationRecord<Message>, expectedVersion: number): Promise<boolean> {
      checkVersion(expectedVersion)
      if (((await read(id))?.version ?? 0) !== expectedVersion) return false
      await store.save(id, record.messages)
      if (record.suspended === undefined) suspended.delete(id)
      else suspended.set(id, { version: versionOf(record.messages), state: record.suspended })
      return true
    },
    async delete(id: string): Promise<void> {
      suspended.delete(id)
      if (store.delete === undefined) await store.save(id, [])
      else await store.delete(id)
    },
  }
}

/** A positive whole number that follows the transcript's JSON text (FNV-1a, 32 bits, plus one). */
function versionOf(messages: unknown[]): number {
  const text = JSON.stringify(messages) ?? ''
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0) + 1
}
