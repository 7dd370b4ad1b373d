import { closest, distance } from 'fastest-levenshtein'

/**
 * The candidate a mistyped name most likely meant: the closest by edit distance, when it is within 1 edit
 * for a name of up to 3 characters, else within a third of its length (at least 2, at most 3 edits: a
 * swapped pair of letters is 2). Undefined when nothing is that close, or when
 * the name is itself a candidate.
 *
 * @example
 * didYouMean('comand', ['command', 'args', 'url']) // 'command'
 * didYouMean('xyz', ['command', 'args']) // undefined
 */
export function didYouMean(name: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates]
  if (list.length === 0 || list.includes(name)) return undefined
  const best = closest(name, list)
  const allowed = name.length <= 3 ? 1 : Math.min(3, Math.max(2, Math.floor(name.length / 3)))
  return distance(name, best) <= allowed ? best : undefined
}

/**
 * Names for a message: the first `limit` quoted and comma-separated, then how many more.
 *
 * @example
 * listNames(['a', 'b', 'c'], 2) // '"a", "b" and 1 more'
 */
export function listNames(names: readonly string[], limit = 20): string {
  if (names.length === 0) return '(none)'
  const shown = names.slice(0, limit).map((name) => JSON.stringify(name))
  const more = names.length - shown.length
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ')
}
