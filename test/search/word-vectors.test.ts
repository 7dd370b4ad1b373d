import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/errors.js'
import { searchWords } from '../../src/search/search-terms.js'
import { ToolIndex } from '../../src/search/tool-index.js'
import { readSearchOptions } from '../../src/search/tool-search.js'
import { createWordVectors, similarity, textVector } from '../../src/search/word-vectors.js'
import type { Tool } from '../../src/tool/types.js'

function tool(name: string, description: string): Tool {
  return {
    name,
    description,
    inputSchema: { type: 'object', properties: {} },
    source: 'native',
    execute: async () => ({ output: name, isError: false }),
  }
}

// Three dimensions: weather words, mail words, and one for the most frequent word.
const source = {
  dimensions: 3,
  words: ['the', 'weather', 'mail', 'temperature', 'email', 'forecast', 'inbox'],
  vectors: {
    the: [0, 0, 5],
    weather: [2, 0, 0],
    mail: [0, 3, 0],
    temperature: [0.9, 0.1, 0],
    email: [0.1, 0.9, 0],
    forecast: [0.8, 0, 0.2],
    inbox: [0, 1, 0.1],
  },
}

const round = (values: ArrayLike<number>) => Array.from(values, (value) => Math.round(value * 1000) / 1000)

describe('searchWords', () => {
  it.each([
    { text: 'What is the temperature in Tokyo?', words: ['temperature', 'tokyo'] },
    { text: 'get_stock_price', words: ['get', 'stock', 'price'] },
    { text: 'sendEmails to the team', words: ['send', 'emails', 'team'] },
    { text: 'Can you please help me', words: [] },
    { text: 'a b cc', words: ['cc'] },
  ])('keeps the written words of "$text" without stop words', ({ text, words }) => {
    expect(searchWords(text)).toStrictEqual(words)
  })
})

describe('createWordVectors', () => {
  it('keeps each word once, in frequency order, at unit length', () => {
    const vectors = createWordVectors(source)
    expect([...vectors.rows.keys()]).toStrictEqual(source.words)
    expect(vectors.dimensions).toStrictEqual(3)
    expect(round(vectors.vectors.subarray(3, 6))).toStrictEqual([1, 0, 0])
    expect(round(vectors.vectors.subarray(0, 3))).toStrictEqual([0, 0, 1])
  })

  it.each([
    { limit: 2, words: ['the', 'weather'] },
    { limit: 100, words: source.words },
  ])('keeps the $limit most frequent words', ({ limit, words }) => {
    expect([...createWordVectors(source, { limit }).rows.keys()]).toStrictEqual(words)
  })

  it('skips a word without a vector, a repeated word and a zero vector', () => {
    const vectors = createWordVectors({
      dimensions: 2,
      words: ['one', 'gone', 'one', 'zero', 'two'],
      vectors: { one: [1, 0], zero: [0, 0], two: [0, 2] },
    })
    expect([...vectors.rows]).toStrictEqual([
      ['one', 0],
      ['two', 1],
    ])
    expect(round(vectors.vectors)).toStrictEqual([1, 0, 0, 1])
  })

  it.each([
    { name: 'no dimensions', value: { words: [], vectors: {} } },
    { name: 'dimensions 0', value: { dimensions: 0, words: [], vectors: {} } },
    { name: 'words not a list', value: { dimensions: 3, words: 'the', vectors: {} } },
  ])('rejects a source with $name', ({ value }) => {
    expect(() => createWordVectors(value as never)).toThrow(ConfigError)
  })
})

describe('textVector', () => {
  const vectors = createWordVectors(source)

  it.each([
    { words: ['unknown', 'words'], known: false },
    { words: [], known: false },
    { words: ['weather', 'unknown'], known: true },
  ])('is undefined only when no word of $words is known', ({ words, known }) => {
    expect(textVector(vectors, words) !== undefined).toStrictEqual(known)
  })

  it('brings texts of the same meaning close, in other words', () => {
    const weather = textVector(vectors, ['weather', 'forecast']) as Float32Array
    const temperature = textVector(vectors, ['temperature']) as Float32Array
    const email = textVector(vectors, ['email', 'inbox']) as Float32Array
    expect(similarity(weather, temperature)).toBeGreaterThan(0.9)
    expect(similarity(weather, email)).toBeLessThan(0.2)
  })

  it('weighs a frequent word less than a rare one', () => {
    // "the" is the most frequent word: beside "weather" it moves the text's meaning less.
    const text = textVector(vectors, ['the', 'weather']) as Float32Array
    const weather = similarity(text, textVector(vectors, ['weather']) as Float32Array)
    const the = similarity(text, textVector(vectors, ['the']) as Float32Array)
    expect(weather).toBeGreaterThan(the + 0.3)
  })
})

describe('ToolIndex with word vectors', () => {
  const tools = [
    tool('weather_now', 'Current weather and forecast.'),
    tool('mail_send', 'Send mail to an inbox.'),
  ]

  it.each([
    { query: 'temperature', first: 'weather_now' },
    { query: 'email', first: 'mail_send' },
  ])('finds a tool for "$query", a word its text does not have', ({ query, first }) => {
    const plain = new ToolIndex()
    plain.update(tools)
    expect(plain.search(query, 5)).toStrictEqual([])
    const index = new ToolIndex(undefined, createWordVectors(source))
    index.update(tools)
    expect(index.search(query, 5)[0]?.name).toStrictEqual(first)
  })

  it('still ranks a full-text match first, and answers at most the limit', () => {
    const index = new ToolIndex(undefined, createWordVectors(source))
    index.update([...tools, tool('mail_archive', 'Archive old mail.')])
    const found = index.search('archive', 1)
    expect(found.map((match) => match.name)).toStrictEqual(['mail_archive'])
  })

  it('falls back to full text for a query without a known word', () => {
    const index = new ToolIndex(undefined, createWordVectors(source))
    index.update(tools)
    expect(index.search('send', 5).map((match) => match.name)).toStrictEqual(['mail_send'])
  })
})

describe('search.wordVectors', () => {
  it('rejects word vectors not made by createWordVectors', () => {
    expect(() => readSearchOptions({ wordVectors: { dimensions: 3 } as never })).toThrow(ConfigError)
    const wordVectors = createWordVectors(source)
    expect(readSearchOptions({ wordVectors })).toStrictEqual({ wordVectors })
  })
})
