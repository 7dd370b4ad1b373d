// A suspended run kept in a conversation store, so that any instance sharing the store can answer its
// approvals: how a resume claims it (once, across instances), and how the resumed turn is saved back in
// place of the answers that said "not run". The client's `ask` and the chat handler's store mode share it.
import { vouchFor } from '../approvals/approval-guard.js'
import { refuseIdleResume } from '../approvals/refuse-idle-resume.js'
import { checkApprovals, openRunState, type RunStateKeys } from '../approvals/run-state.js'
import { readStoredSuspension, type StoredSuspension } from '../approvals/stored-suspension.js'
import type { ApprovalResponse, RunResult, RunState } from '../contracts/run-types.js'
import { ApprovalError, StoreError } from '../errors.js'
import type { ConversationStore, StoredConversation } from '../stores/conversation-store.js'
import { quoteId } from '../stores/quote-id.js'
import { callStore } from './call-store.js'
import { suspensionOf } from './save-turn.js'

/** A stored run claimed for these answers: its state to resume, and how the resumed run is saved back. */
export interface ClaimedRun<Message> {
  state: RunState
  /** Saves the resumed run in place of the "not run" answers; resolves the transcript as saved. */
  save(result: RunResult<Message>): Promise<Message[]>
}

/**
 * Claims the run kept suspended under `id` for these answers (once, across every instance sharing the
 * store) and vouches for its state, so that the resume runs it without claiming it again; nothing has run.
 * Rejects with an `ApprovalError` when there is no such run, the answers do not fit it, or another
 * request claimed it first.
 *
 * @example
 * const claimed = await claimStoredRun({ store, id: 'user-1', approvals })
 * const result = await client.resume(claimed.state, { toolkit, approvals })
 * const messages = await claimed.save(result)
 */
export async function claimStoredRun<Message>(options: {
  store: ConversationStore<Message>
  id: string
  /** The client's keys, to check the state's shape and expiry before claiming (see `claimSuspension`). */
  keys?: RunStateKeys
  approvals: ApprovalResponse[] | unknown
  /** Refuses, before claiming, a resume without answers of a run that waits on no MCP task. */
  refuseIdle?: boolean
}): Promise<ClaimedRun<Message>> {
  const { store, id } = options
  const claimed = await claimSuspension(options)
  const { state } = claimed.suspension
  // Claimed by the store's compare-and-set: any instance sharing the store may have suspended it.
  vouchFor(state)
  return {
    state,
    save: (result) =>
      saveResumed({
        store,
        id,
        claimed,
        added: result.messages.slice(state.messages.length),
        suspended: suspensionOf(result),
      }),
  }
}

/** A conversation whose suspended run this resume has claimed. */
interface ClaimedSuspension<Message> {
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
async function claimSuspension<Message>(options: {
  store: ConversationStore<Message>
  id: string
  /**
   * The client's keys, to check the state's shape and expiry before claiming; without them the resume
   * checks them. Its seal is not checked: the store is the server's own, and any instance sharing it
   * (each with its own key when they have no `secret`) may have written it.
   */
  keys?: RunStateKeys
  approvals: unknown
  refuseIdle?: boolean
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
  if (options.refuseIdle === true) refuseIdleResume(state, approvals)
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
async function saveResumed<Message>(options: {
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
