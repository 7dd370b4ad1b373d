import { describe, expect, it } from 'vitest'
import { median, percentile, seededRandom, shuffle } from '../../bench/src/harness/stats.js'

describe('bench statistics', () => {
  it.each([
    [[5], 0.5, 5],
    [[1, 2, 3, 4], 0.5, 2.5],
    [[4, 1, 3, 2], 0.95, 3.85],
    [[10, 20], 0, 10],
    [[10, 20], 1, 20],
  ])('percentile(%j, %d) = %d', (values, fraction, expected) => {
    expect(percentile(values, fraction)).toBeCloseTo(expected, 10)
  })

  it('gives NaN for no values rather than a made-up number', () => {
    expect(median([])).toBeNaN()
  })

  it('shuffles reproducibly from a seed, keeping every item', () => {
    const items = Array.from({ length: 20 }, (_, index) => index)
    const first = shuffle(items, seededRandom(8))
    expect(shuffle(items, seededRandom(8))).toStrictEqual(first)
    expect(first).not.toStrictEqual(items)
    expect([...first].sort((a, b) => a - b)).toStrictEqual(items)
  })
})
