import { describe, expect, it } from 'vitest'
import { BestScores } from '../../src/search/best-scores.js'

describe('BestScores', () => {
  it('keeps the best scores in order, equal ones in the order offered', () => {
    const best = new BestScores(3)
    for (const [name, score] of [
      ['a', 1],
      ['b', 5],
      ['c', 3],
      ['d', 5],
      ['e', 0.5],
      ['f', 4],
    ] as const) {
      best.offer(name, score)
    }
    expect(best.list().map(({ name }) => name)).toStrictEqual(['b', 'd', 'f'])
  })
})
