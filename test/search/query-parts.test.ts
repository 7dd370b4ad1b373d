import { describe, expect, it } from 'vitest'
import { mergeStepRankings, queryParts } from '../../src/search/query-parts.js'

describe('queryParts', () => {
  it.each([
    {
      query: 'Read /root/a.xlsx, plot it as a bar chart and then save it as a PNG',
      parts: ['Read /root/a.xlsx', 'plot it as a bar chart', 'save it as a PNG'],
    },
    {
      query: 'Find the latest papers on web agents. Download the best one; summarize its method',
      parts: ['Find the latest papers on web agents', 'Download the best one', 'summarize its method'],
    },
    { query: 'Convert the report, finally email it', parts: ['Convert the report', 'email it'] },
    { query: 'Get the file. Now', parts: [] },
  ])('splits "$query" into its steps', ({ query, parts }) => {
    expect(queryParts(query, 2)).toStrictEqual(parts)
  })

  it.each(['What is 3.5 plus 2?', 'send an email to the team', 'Hi. Read it'])(
    'leaves "%s" whole (one step)',
    (query) => {
      expect(queryParts(query, 2)).toStrictEqual([])
    },
  )

  it('joins a piece shorter than the minimum to its neighbour', () => {
    expect(queryParts('Hi, read the report, then send the summary', 2)).toStrictEqual([
      'Hi read the report',
      'send the summary',
    ])
  })
})

describe('mergeStepRankings', () => {
  const named = (...names: string[]) => names.map((name) => ({ name }))

  it('keeps the whole ranking first, then takes each ranking in turn, each name once', () => {
    const merged = mergeStepRankings(named('a', 'b', 'c'), [named('d', 'a'), named('e')], 1, 4)
    expect(merged.map(({ name }) => name)).toStrictEqual(['a', 'd', 'e', 'b'])
  })

  it('never returns more than the limit, nor more of the whole ranking than the limit', () => {
    const merged = mergeStepRankings(named('a', 'b', 'c'), [named('d')], 5, 2)
    expect(merged.map(({ name }) => name)).toStrictEqual(['a', 'b'])
  })
})
