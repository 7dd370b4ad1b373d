/**
 * The approval ids one client has seen answered, so that answering one again (resuming an older copy of
 * a state) is refused as a replay. Bounded: past `limit` ids the oldest are forgotten; a store (`ask`)
 * is what refuses replays across processes and for good.
 *
 * @example
 * const answered = new AnsweredApprovals()
 * answered.add('approval_1')
 * answered.has('approval_1') // true
 */
export class AnsweredApprovals {
  readonly #ids = new Set<string>()
  readonly #limit: number

  constructor(limit = 10_000) {
    this.#limit = limit
  }

  has(approvalId: string): boolean {
    return this.#ids.has(approvalId)
  }

  add(approvalId: string): void {
    this.#ids.add(approvalId)
    // A Set iterates in insertion order: the first id is the oldest.
    if (this.#ids.size > this.#limit) this.#ids.delete(this.#ids.values().next().value as string)
  }
}
