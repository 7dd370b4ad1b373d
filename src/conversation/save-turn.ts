import { type StoredSuspension, toStoredSuspension } from '../approvals/stored-suspension.js'
import type { RunResult } from '../contracts/run-types.js'
import { StoreError } from '../errors.js'
import type { ConversationStore, StoredConversation } from '../stores/conversation-store.js'
import { quoteId } from '../stores/quote-id.js'
import { callStore } from './call-store.js'

/** Saves a turn that keeps losing the race this often gives up (every loss means another turn landed). */
const MAX_SAVE_ATTEMPTS = 25

/** What `saveTurn` takes. */
export interface SaveTurnOptions<Message> {
  store: ConversationStore<Message>
  id: string
  /** The conversation as it was loaded before the turn ran (`undefined`: it was new). */
  loaded: StoredConversation<Message> | undefined
  /** The messages the turn added (its prompt, the model's answers, the tool results), in order. */
  turn: readonly Message[]
  /** The run that made the turn: a suspended one is kept with the conversation, for any instance to resume. */
  result: RunResult<Message>
}

/**
 * Appends a turn to a stored conversation with compare-and-set, so that no turn is lost when another
 * process answered the same conversation meanwhile: when the save finds a newer version, it loads that
 * version and appends the turn after what is there now (the turn ran without seeing the other one;
 * nothing is run again), then tries again. Resolves the transcript as saved.
 *
 * @example
 * const messages = await saveTurn({ store, id, loaded, turn: result.messages.slice(history.length), result })
 */
export async function saveTurn<Message>(options: SaveTurnOptions<Message>): Promise<Message[]> {
  const { store, id, turn } = options
  const suspended = suspensionOf(options.result)
  let base = options.loaded
  for (let attempt = 1; ; attempt++) {
    const messages = [...(base?.messages ?? []), ...turn]
    const saved = await callStore('save', id, () =>
      store.save(id, suspended === undefined ? { messages } : { messages, suspended }, base?.version ?? 0),
    )
    if (saved === true) return messages
    if (saved !== false) {
      throw new StoreError(
        `The conversation store's save of ${quoteId(id)} answered neither true nor false.`,
        {
          operation: 'save',
        },
      )
    }
    if (attempt === MAX_SAVE_ATTEMPTS) {
      throw new StoreError(
        `Conversation ${quoteId(id)} changed under each of ${MAX_SAVE_ATTEMPTS} saves of this turn; nothing was written.`,
        { operation: 'save' },
      )
    }
    base = await callStore('load', id, () => store.load(id))
  }
}

/**
 * What a store keeps as the conversation's `suspended` after a run: its suspension while it waits for a
 * person, else nothing.
 *
 * @example
 * const suspended = suspensionOf(result) // undefined for a finished run
 */
export function suspensionOf(result: RunResult<unknown>): StoredSuspension | undefined {
  return result.status === 'suspended' ? toStoredSuspension(result) : undefined
}
