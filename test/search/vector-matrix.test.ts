import { describe, expect, it } from 'vitest'
import { VectorMatrix } from '../../src/search/vector-matrix.js'

const unit = (...values: number[]) => {
  const norm = Math.hypot(...values)
  return new Float32Array(values.map((value) => value / norm))
}

describe('VectorMatrix', () => {
  it('finds the rows nearest a query, most similar first, over every row', () => {
    const vectors = Array.from({ length: 200 }, (_, row) =>
      unit(Math.cos(row / 30), Math.sin(row / 30), 0, 0, 1),
    )
    const matrix = VectorMatrix.of(5, vectors)
    const query = unit(Math.cos(150 / 30), Math.sin(150 / 30), 0, 0, 1)
    const near = matrix.nearest(query, 3)
    expect(near.map(({ row }) => row)).toStrictEqual([150, 149, 151])
    expect(near[0]?.score).toBeCloseTo(1, 5)
    // The same as scoring every row and sorting.
    const all = vectors
      .map((_, row) => ({ row, score: matrix.similarity(query, row) }))
      .sort((a, b) => b.score - a.score || a.row - b.row)
    expect(matrix.nearest(query, 40).map(({ row }) => row)).toStrictEqual(
      all.slice(0, 40).map(({ row }) => row),
    )
  })

  it('treats a missing vector as similar to nothing, and asks for no more rows than it has', () => {
    const matrix = VectorMatrix.of(2, [unit(1, 0), undefined, unit(0, 1)])
    expect(matrix.nearest(unit(1, 1), 10)).toStrictEqual([
      { row: 0, score: expect.closeTo(Math.SQRT1_2, 5) },
      { row: 2, score: expect.closeTo(Math.SQRT1_2, 5) },
      { row: 1, score: 0 },
    ])
    expect(matrix.nearest(unit(1, 0), 0)).toStrictEqual([])
  })
})
