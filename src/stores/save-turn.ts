import { StoreError } from '../errors.js'
import type { ConversationStore, StoredConversation } from './conversation-store.js'

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
  /** A suspended run to keep with the conversation, or `undefined` for none. */
  suspended?: unknown
}

/**
 * Appends a turn to a stored conversation with compare-and-set, so that no turn is lost when another
 * process answered the same conversation meanwhile: when the save finds a newer version, it loads that
 * version and appends the turn after what is there now (the turn ran without seeing the other one;
 * nothing is run again), then tries again. Resolves the transcript as saved.
 *
 * @example
 * const messages = await saveTurn({ store, id, loaded, turn: result.messages.slice(history.length) })
 */
export async function saveTurn<Message>(options: SaveTurnOptions<Message>): Promise<Message[]> {
  const { store, id, turn, suspended } = options
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
 * Runs one store operation; an error that is not already a `StoreError` (a store of your own) becomes
 * one, with the original as `cause` and its text left out of the message (it may hold a URL).
 *
 * @example
 * const loaded = await callStore('load', id, () => store.load(id))
 */
export async function callStore<Result>(
  operation: 'load' | 'save' | 'delete',
  id: string,
  call: () => Result | PromiseLike<Result>,
): Promise<Result> {
  try {
    return await call()
  } catch (error) {
    if (StoreError.isInstance(error)) throw error
    throw new StoreError(
      `The conversation store failed to ${operation} conversation ${quoteId(id)} (see cause).`,
      {
        operation,
        cause: error,
      },
    )
  }
}

/**
 * A conversation id for an error message: quoted, and cut at 80 characters (ids can come from browsers).
 *
 * @example
 * quoteId('user-1') // '"user-1"'
 */
export function quoteId(id: string): string {
  return JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id)
}
