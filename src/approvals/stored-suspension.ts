// A suspended run kept in a conversation store, so that any instance sharing the store can answer its
// approvals: how it is written, how a resume claims it (once, across instances), and how the resumed turn
// is saved back in place of the answers that said "not run".

import { ApprovalError, StoreError } from '../errors.js'
import type { RunState, SuspendedRunResult } from '../loop/types.js'
import { isRecord } from '../shared/is-record.js'
import type { ConversationStore, StoredConversation } from '../stores/conversation-store.js'
import { callStore, quoteId } from '../stores/save-turn.js'
import { checkApprovals, openRunState, type RunStateKeys } from './run-state.js'

/**
 * What a store keeps as a conversation's `suspended`: the run state, and how many messages at the end of
 * the stored transcript are the "not run" answers to its waiting calls (replaced when it resumes).
 */
export interface StoredSuspension {
  state: RunState
  placeholders: number
}

/** The `suspended` to store with a suspended run's transcript. */
export function toStoredSuspension(result: SuspendedRunResult<unknown>): StoredSuspension {
  return { state: result.state, placeholders: result.messages.length - result.state.messages.length }
}

/** A conversation whose suspended run this resume has claimed. */
export interface ClaimedSuspension<Message> {
  loaded: StoredConversation<Message>
  suspension: StoredSuspension
}

/**
 * Claims the conversation's suspended run for these answers: checks the state and the answers first
 * (nothing is claimed when they are refused), then clears `suspended` with a compare-and-set, so that of
 * two instances answering at once exactly one goes on; the other is refused as a replay. Nothing has run.
 *
 * @example
 * const claimed = await claimSuspension({ store, id: 'user-1', keys, approvals })
 */
export async function claimSuspension<Message>(options: {
  store: ConversationStore<Message>
  id: string
  /**
   * The client's keys, to check the state's shape and expiry before claiming; without them the resume
   * checks them. Its seal is not checked: the store is the server's own, and any instance sharing it
   * (each with its own key when they have no `secret`) may have written it.
   */
  keys?: RunStateKeys
  approvals: unknown
}): Promise<ClaimedSuspension<Message>> {
  const { store, id, keys, approvals } = options
  const loaded = await callStore('load', id, () => store.load(id))
  const suspension = readStoredSuspension(loaded?.suspended)
  if (loaded === undefined || suspension === undefined) {
    throw new ApprovalError(
      `Conversation ${quoteId(id)} has no run waiting for approval (answered already, or never suspended); nothing ran.`,
      { code: 'replayed-approval' },
    )
  }
  const state =
    keys === undefined ? suspension.state : await openRunState(keys, suspension.state, { trusted: true })
  checkApprovals({ state, approvals })
  const claimed = await callStore('save', id, () =>
    store.save(id, { messages: loaded.messages }, loaded.version),
  )
  if (claimed !== true) {
    throw new ApprovalError(
      `Conversation ${quoteId(id)} changed while its approvals were being answered (another request answered them first); nothing ran.`,
      { code: 'replayed-approval' },
    )
  }
  return { loaded, suspension }
}

/** Saves of a resumed turn that keep losing the race before giving up. */
const MAX_SAVE_ATTEMPTS = 25

/**
 * Saves a resumed run: the stored transcript without its "not run" answers, then what the resume added
 * (the real answers and the turns after), then anything another request appended meanwhile; with the new
 * suspension when the run waits again. Resolves the transcript as saved.
 *
 * @example
 * const messages = await saveResumed({ store, id, claimed, added: result.messages.slice(state.messages.length), suspended })
 */
export async function saveResumed<Message>(options: {
  store: ConversationStore<Message>
  id: string
  claimed: ClaimedSuspension<Message>
  /** The messages the resume added after the model turn that made the calls. */
  added: readonly Message[]
  suspended: StoredSuspension | undefined
}): Promise<Message[]> {
  const { store, id, claimed, added, suspended } = options
  const before = claimed.loaded.messages
  const base = before.slice(0, Math.max(0, before.length - claimed.suspension.placeholders))
  for (let attempt = 1; attempt <= MAX_SAVE_ATTEMPTS; attempt++) {
    const current = await callStore('load', id, () => store.load(id))
    const after = (current?.messages ?? []).slice(before.length)
    const messages = [...base, ...added, ...after]
    const record = suspended === undefined ? { messages } : { messages, suspended }
    if (await callStore('save', id, () => store.save(id, record, current?.version ?? 0))) return messages
  }
  throw new StoreError(
    `Conversation ${quoteId(id)} changed under each of ${MAX_SAVE_ATTEMPTS} saves of its resumed run; nothing was written.`,
    { operation: 'save' },
  )
}

function readStoredSuspension(value: unknown): StoredSuspension | undefined {
  if (!isRecord(value) || !isRecord(value.state) || !Number.isInteger(value.placeholders)) return undefined
  return { state: value.state as unknown as RunState, placeholders: value.placeholders as number }
}
