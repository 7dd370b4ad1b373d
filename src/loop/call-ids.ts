// Per process: ids made up for calls a provider sent without one, so they never repeat across turns.
let prefix: string | undefined
let generated = 0

/**
 * An id for a tool call the provider sent without one: unique within the process and, by a random
 * prefix drawn once, across processes (a stored conversation may go on in another one), never `call_0`
 * in every turn.
 *
 * @example
 * generateCallId() // 'call_3f9a1c_1'
 */
export function generateCallId(): string {
  generated += 1
  return `call_${processPrefix()}_${generated}`
}

let runs = 0

/**
 * An id for a run that was given none, to start its calls' idempotency keys: unique within the process
 * and, by the same random prefix, across processes; cheaper than a UUID on a path run for every run.
 *
 * @example
 * generateRunKey() // 'run_3f9a1c_1'
 */
export function generateRunKey(): string {
  runs += 1
  runKeyStart ??= `run_${processPrefix()}_`
  // One string joined to another, not three: a run holds its key for its whole life.
  return runKeyStart + runs
}

let runKeyStart: string | undefined

function processPrefix(): string {
  if (prefix === undefined) {
    const bytes = new Uint8Array(6)
    globalThis.crypto.getRandomValues(bytes)
    prefix = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')
  }
  return prefix
}

/**
 * The id to give a call within one turn: its own when none of the turn's earlier calls (the first `count`
 * of `earlier`) has it, else the first free `<id>_<n>` (n from 2), so that five calls sharing an id become
 * five calls, each answered once. Deterministic: the same turn gets the same ids. A turn makes few calls,
 * so they are looked through, with no set kept.
 *
 * @example
 * uniqueCallId('a', [], 0)            // 'a'
 * uniqueCallId('a', [{ id: 'a' }], 1) // 'a_2'
 */
export function uniqueCallId(
  id: string,
  earlier: ReadonlyArray<{ id: string }>,
  count: number = earlier.length,
): string {
  let unique = id
  for (let n = 2; hasId(earlier, count, unique); n++) unique = `${id}_${n}`
  return unique
}

function hasId(calls: ReadonlyArray<{ id: string }>, count: number, id: string): boolean {
  for (let index = 0; index < count; index++) if ((calls[index] as { id: string }).id === id) return true
  return false
}
