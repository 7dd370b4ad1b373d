/**
 * Unit vectors of one length kept in one contiguous `Float32Array`, row after row, and the rows most
 * similar to a query: one dot product per row in a single loop, the best kept in a small heap, so a
 * search over 10,000 rows allocates nothing per row.
 *
 * @example
 * const matrix = VectorMatrix.of(2, [new Float32Array([1, 0]), new Float32Array([0, 1])])
 * matrix.nearest(new Float32Array([0.8, 0.6]), 1) // [{ row: 0, score: 0.8 }]
 */
export class VectorMatrix {
  readonly dimensions: number
  readonly rows: number
  readonly #values: Float32Array

  private constructor(dimensions: number, values: Float32Array) {
    this.dimensions = dimensions
    this.rows = dimensions === 0 ? 0 : values.length / dimensions
    this.#values = values
  }

  /** The vectors as one matrix; a missing vector (no known word) is a row of zeros, similar to nothing. */
  static of(dimensions: number, vectors: ReadonlyArray<Float32Array | undefined>): VectorMatrix {
    const values = new Float32Array(vectors.length * dimensions)
    for (const [row, vector] of vectors.entries()) {
      if (vector !== undefined) values.set(vector.subarray(0, dimensions), row * dimensions)
    }
    return new VectorMatrix(dimensions, values)
  }

  /** The cosine of `query` (a unit vector) and one row. */
  similarity(query: Float32Array, row: number): number {
    const values = this.#values
    const offset = row * this.dimensions
    let dot = 0
    for (let at = 0; at < this.dimensions; at++)
      dot += (query[at] as number) * (values[offset + at] as number)
    return dot
  }

  /** The `limit` rows most similar to `query`, most similar first (equal scores: lower row first). */
  nearest(query: Float32Array, limit: number): Array<{ row: number; score: number }> {
    const size = Math.min(limit, this.rows)
    if (size <= 0) return []
    const heap = new TopHeap(size)
    const values = this.#values
    const dimensions = this.dimensions
    // Four products per turn, in four sums: fewer loop checks, and the sums need not wait on each other.
    const whole = dimensions - (dimensions % 4)
    for (let row = 0, offset = 0; row < this.rows; row++, offset += dimensions) {
      let a = 0
      let b = 0
      let c = 0
      let d = 0
      let at = 0
      for (; at < whole; at += 4) {
        a += (query[at] as number) * (values[offset + at] as number)
        b += (query[at + 1] as number) * (values[offset + at + 1] as number)
        c += (query[at + 2] as number) * (values[offset + at + 2] as number)
        d += (query[at + 3] as number) * (values[offset + at + 3] as number)
      }
      for (; at < dimensions; at++) a += (query[at] as number) * (values[offset + at] as number)
      heap.offer(row, a + b + c + d)
    }
    return heap.sorted()
  }
}

/** The `size` best (row, score) pairs of a stream: a min-heap on the score, the worst kept at the top. */
class TopHeap {
  readonly #rows: Int32Array
  readonly #scores: Float64Array
  readonly #size: number
  #count = 0

  constructor(size: number) {
    this.#size = size
    this.#rows = new Int32Array(size)
    this.#scores = new Float64Array(size)
  }

  offer(row: number, score: number): void {
    const scores = this.#scores
    const rows = this.#rows
    if (this.#count < this.#size) {
      let at = this.#count++
      while (at > 0) {
        const parent = (at - 1) >> 1
        if (!worse(score, row, scores[parent] as number, rows[parent] as number)) break
        scores[at] = scores[parent] as number
        rows[at] = rows[parent] as number
        at = parent
      }
      scores[at] = score
      rows[at] = row
      return
    }
    if (!worse(scores[0] as number, rows[0] as number, score, row)) return
    let at = 0
    for (;;) {
      const left = 2 * at + 1
      if (left >= this.#size) break
      const right = left + 1
      let child = left
      if (
        right < this.#size &&
        worse(scores[right] as number, rows[right] as number, scores[left] as number, rows[left] as number)
      )
        child = right
      if (!worse(scores[child] as number, rows[child] as number, score, row)) break
      scores[at] = scores[child] as number
      rows[at] = rows[child] as number
      at = child
    }
    scores[at] = score
    rows[at] = row
  }

  sorted(): Array<{ row: number; score: number }> {
    const kept: Array<{ row: number; score: number }> = []
    for (let at = 0; at < this.#count; at++) {
      kept.push({ row: this.#rows[at] as number, score: this.#scores[at] as number })
    }
    return kept.sort((a, b) => b.score - a.score || a.row - b.row)
  }
}

/** Whether (score, row) ranks below (otherScore, otherRow): a lower score, or the same and a later row. */
function worse(score: number, row: number, otherScore: number, otherRow: number): boolean {
  return score < otherScore || (score === otherScore && row > otherRow)
}
