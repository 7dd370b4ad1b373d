// A suspended run as it is kept beside its transcript (in a conversation store, or signed in a message):
// the run state, and how many of the transcript's last messages are the "not run" answers a resume replaces.
import type { RunState, SuspendedRunResult } from '../contracts/run-types.js'
import { isRecord } from '../shared/is-record.js'

/**
 * What a store keeps as a conversation's `suspended`: the run state, and how many messages at the end of
 * the stored transcript are the "not run" answers to its waiting calls (replaced when it resumes).
 */
export interface StoredSuspension {
  state: RunState
  placeholders: number
}

/**
 * The `suspended` to store with a suspended run's transcript.
 *
 * @example
 * const suspended = toStoredSuspension(result)
 */
export function toStoredSuspension(result: SuspendedRunResult<unknown>): StoredSuspension {
  return { state: result.state, placeholders: result.messages.length - result.state.messages.length }
}

/**
 * A conversation's stored `suspended`, when it is one; `undefined` for anything else.
 *
 * @example
 * const suspension = readStoredSuspension(loaded?.suspended)
 */
export function readStoredSuspension(value: unknown): StoredSuspension | undefined {
  if (!isRecord(value) || !isRecord(value.state) || !Number.isInteger(value.placeholders)) return undefined
  return { state: value.state as unknown as RunState, placeholders: value.placeholders as number }
}
