/**
 * The `limit` best of a stream of scored names, kept in order as they come: each offer costs a
 * comparison with the worst kept, so thousands of candidates cost no sort.
 *
 * @example
 * const best = new BestScores(2)
 * best.offer('a', 1); best.offer('b', 3); best.offer('c', 2)
 * best.list() // [{ name: 'b', score: 3 }, { name: 'c', score: 2 }]
 */
export class BestScores {
  readonly #limit: number
  readonly #kept: Array<{ name: string; score: number }> = []

  constructor(limit: number) {
    this.#limit = limit
  }

  /** Keeps `name` if it scores above the worst kept (or fewer than `limit` are kept). */
  offer(name: string, score: number): void {
    const kept = this.#kept
    if (kept.length >= this.#limit && score <= (kept[kept.length - 1]?.score ?? Number.NEGATIVE_INFINITY))
      return
    let at = kept.length
    while (at > 0 && (kept[at - 1] as { score: number }).score < score) at--
    kept.splice(at, 0, { name, score })
    if (kept.length > this.#limit) kept.pop()
  }

  /** The kept names, best first; equal scores in the order offered. */
  list(): ReadonlyArray<{ name: string; score: number }> {
    return this.#kept
  }
}
