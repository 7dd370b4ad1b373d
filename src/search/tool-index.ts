import MiniSearch, { type SearchOptions, type SearchResult } from 'minisearch'
import type { Tool } from '../tool/types.js'
import { BestScores } from './best-scores.js'
import { definitionKey } from './definition-key.js'
import { DEFAULT_WEIGHTS, type RankingWeights } from './ranking-weights.js'
import { searchTerms, searchWords } from './search-terms.js'
import { withServerCoherence } from './server-coherence.js'
import { ServerIndex, type ServerMatch } from './server-index.js'
import { collectParams, meaningWords } from './tool-text.js'
import { VectorMatrix } from './vector-matrix.js'
import { textVector, type WordVectors } from './word-vectors.js'

/** One tool a search found: its exposed name, its description and how well it matched (higher is better). */
export interface ToolMatch {
  name: string
  description: string
  score: number
}

/** The text of one tool the index reads, field by field. */
interface ToolDocument {
  id: string
  name: string[]
  description: string[]
  params: string[]
}

const FIELDS = ['name', 'description', 'params'] as const

/**
 * A full-text index over tools (MiniSearch, BM25): each tool's name split into words, its description,
 * its parameters' names and descriptions, and its server's name and description. `update` takes the
 * whole current list and changes only the tools that changed.
 *
 * @example
 * const index = new ToolIndex()
 * index.update(toolkit.tools())
 * index.search('send an email', 5) // [{ name: 'gmail_send', description: '…', score: 7.1 }, …]
 */
export class ToolIndex {
  readonly #search: MiniSearch<ToolDocument>
  readonly #servers = new ServerIndex()
  readonly #serverOptions: SearchOptions
  readonly #options: SearchOptions
  readonly #weights: RankingWeights
  // The definition each indexed tool had, so an update re-indexes only what changed.
  #indexed = new Map<string, Indexed>()
  // In how many indexed tools each term occurs, to weigh a query's terms before searching.
  readonly #documentFrequency = new Map<string, number>()
  // A server's terms, made once for all its tools.
  readonly #sourceTerms = new Map<string, string[]>()
  readonly #vectors: WordVectors | undefined
  // With word vectors: every tool's meaning as one matrix, made again on the first search after a change.
  #matrix: MeaningMatrix | undefined

  constructor(weights: RankingWeights = DEFAULT_WEIGHTS, vectors?: WordVectors) {
    this.#vectors = vectors
    this.#search = new MiniSearch<ToolDocument>({
      fields: [...FIELDS],
      storeFields: [],
      // A document holds each field as its terms, made once by `searchTerms`: MiniSearch is handed each
      // array as it is (its stringify and tokenize steps pass it through), so no text is joined and
      // split again on the way in.
      stringifyField: (terms) => terms,
      tokenize: (terms) => terms as unknown as string[],
      processTerm: (term) => term,
      // Queries arrive as their terms too: `search` picks them.
      searchOptions: { tokenize: splitTerms, processTerm: (term) => term },
    })
    this.#weights = weights
    this.#options = {
      boost: {
        name: weights.name,
        description: weights.description,
        params: weights.params,
      },
      // Whole terms only: prefix and fuzzy matching multiply the work per query term and, measured on the
      // tuning part of the benchmarks, found nothing more.
      combineWith: 'OR',
      bm25: { k: weights.k, b: weights.b, d: 0.5 },
    }
    this.#serverOptions = { ...this.#options, boost: { source: weights.source } }
  }

  /** Brings the index in line with `tools`: drops the tools gone, re-indexes the ones whose definition changed. */
  update(tools: readonly Tool[]): void {
    const next = new Map<string, Indexed>()
    const added: ToolDocument[] = []
    for (const tool of tools) {
      const known = this.#indexed.get(tool.name)
      if (known !== undefined && (known.tool === tool || known.key === definitionKey(tool))) {
        next.set(tool.name, { ...known, tool })
        continue
      }
      if (known !== undefined) this.#discard(known)
      const document = this.#document(tool)
      const server = this.#server(tool)
      if (server !== undefined) this.#servers.add(server.key, server.terms, tool.name)
      next.set(tool.name, {
        tool,
        key: definitionKey(tool),
        server: server?.key,
        terms: distinctTerms(document, server?.terms),
        meaning: this.#vectors === undefined ? undefined : textVector(this.#vectors, meaningWords(tool)),
      })
      added.push(document)
    }
    for (const [name, known] of this.#indexed) if (!next.has(name)) this.#discard(known)
    for (const document of added) {
      this.#search.add(document)
      for (const term of next.get(document.id)?.terms ?? []) {
        this.#documentFrequency.set(term, (this.#documentFrequency.get(term) ?? 0) + 1)
      }
    }
    this.#indexed = next
    this.#matrix = undefined
    if (this.#sourceTerms.size > MAX_CACHED_SOURCES) this.#sourceTerms.clear()
  }

  #discard(known: Indexed): void {
    this.#search.discard(known.tool.name)
    if (known.server !== undefined) this.#servers.remove(known.server, known.tool.name)
    for (const term of known.terms) {
      const count = (this.#documentFrequency.get(term) ?? 0) - 1
      if (count > 0) this.#documentFrequency.set(term, count)
      else this.#documentFrequency.delete(term)
    }
  }

  #document(tool: Tool): ToolDocument {
    const params: string[] = []
    collectParams(tool.inputSchema, params, 0)
    const description = typeof tool.description === 'string' ? tool.description : ''
    return {
      id: tool.name,
      name: searchTerms(tool.name),
      description: searchTerms(description),
      params: searchTerms(params.join(' ')),
    }
  }

  /** A tool's server, by its text, and the terms of that text (made once per server). */
  #server(tool: Tool): { key: string; terms: string[] } | undefined {
    if (tool.server === undefined) return undefined
    const key = `${tool.server.name} ${tool.server.description ?? ''}`
    const terms = this.#sourceTerms.get(key) ?? searchTerms(key)
    this.#sourceTerms.set(key, terms)
    return { key, terms }
  }

  /**
   * A query's terms worth searching for: those some tool has, rarest first, at most `maxQueryTerms`,
   * within `maxPostings`; each with how many times the query says it.
   */
  #queryTerms(query: string): Map<string, number> {
    const said = new Map<string, number>()
    for (const term of searchTerms(query)) said.set(term, (said.get(term) ?? 0) + 1)
    const known = [...said.keys()]
      .map((term) => ({ term, count: this.#documentFrequency.get(term) ?? 0 }))
      .filter(({ count }) => count > 0)
      .sort((a, b) => a.count - b.count)
    const terms = new Map<string, number>()
    let postings = 0
    for (const { term, count } of known) {
      if (terms.size >= this.#weights.maxQueryTerms) break
      if (terms.size > 0 && postings + count > this.#weights.maxPostings) break
      terms.set(term, said.get(term) ?? 1)
      postings += count
    }
    return terms
  }

  /** The tools best matching `query`, best first, at most `limit`. */
  search(query: string, limit: number): ToolMatch[] {
    const { coherence, coherenceDepth, coherenceMembers, fullTextDepth } = this.#weights
    const depth = coherence === 0 ? limit : Math.max(limit, coherenceDepth)
    const meaning = this.#vectors === undefined ? undefined : textVector(this.#vectors, searchWords(query))
    const matches = this.#fullText(query, meaning === undefined ? depth : Math.max(depth, fullTextDepth))
    const ranked = meaning === undefined ? matches : this.#withMeaning(matches, meaning, depth)
    if (coherence === 0) return ranked
    const candidates = ranked.map(({ name, score }) => ({
      name,
      score,
      server: this.#indexed.get(name)?.server,
    }))
    return this.#matches(
      withServerCoherence(candidates, { weight: coherence, members: coherenceMembers, limit }),
    )
  }

  #matches(ranked: ReadonlyArray<{ name: string; score: number }>): ToolMatch[] {
    const matches: ToolMatch[] = []
    for (const { name, score } of ranked) {
      const tool = this.#indexed.get(name)?.tool
      if (tool !== undefined) matches.push({ name: tool.name, description: tool.description, score })
    }
    return matches
  }

  #fullText(query: string, limit: number): ToolMatch[] {
    const terms = this.#queryTerms(query)
    if (terms.size === 0) return []
    const boostTerm = (term: string) => this.#termWeight(term, terms)
    const text = [...terms.keys()].join(' ')
    const hits = this.#search.search(text, { ...this.#options, boostTerm })
    const withServer = this.#withServers(
      hits,
      this.#servers.search(text, { ...this.#serverOptions, boostTerm }),
      limit,
    )
    const best = new BestScores(limit)
    // The hits come best first: past `limit` of them, only tools whose server matched can still rank.
    let taken = 0
    for (const hit of hits) {
      if (taken >= limit) break
      const name = String(hit.id)
      if (withServer.has(name)) continue
      best.offer(name, hit.score)
      taken++
    }
    for (const [name, score] of withServer) best.offer(name, score)
    return this.#matches(best.list())
  }

  /**
   * The scores of the tools whose server matched: a server's text counts as part of each of its tools', so
   * the two BM25 sums are added, times the query terms either matched (MiniSearch multiplies a score by
   * the number of query terms matched). A tool matched by its server alone scores the server's score.
   */
  #withServers(
    hits: readonly SearchResult[],
    servers: readonly ServerMatch[],
    limit: number,
  ): Map<string, number> {
    const scores = new Map<string, number>()
    if (servers.length === 0) return scores
    const matched = new Map<string, ServerMatch>()
    for (const server of servers) matched.set(server.key, server)
    for (const hit of hits) {
      const name = String(hit.id)
      const key = this.#indexed.get(name)?.server
      const server = key === undefined ? undefined : matched.get(key)
      if (server === undefined) continue
      let count = hit.queryTerms.length
      for (const term of server.terms) if (!hit.queryTerms.includes(term)) count++
      scores.set(name, (hit.score / hit.queryTerms.length + server.score) * count)
    }
    // Servers come best first, and each of a server's tools scores at least what the server alone does:
    // once `limit` tools are counted, no tool of a later server can rank.
    let counted = 0
    for (const server of servers) {
      const alone = server.score * server.terms.length
      for (const name of server.tools) {
        if (counted >= limit) return scores
        if (!scores.has(name)) scores.set(name, alone)
        counted++
      }
    }
    return scores
  }

  /**
   * What one query term weighs: its rarity among the tools (inverse document frequency over all fields),
   * times 1 + ln(how many times the query says it). BM25 weighs a term's rarity within each field; this
   * weighs it once more on the query's side, so one rare word of a long request (a product, a place, a
   * format) outweighs several of its common ones (find, information, provide), and a word the request
   * repeats counts for more.
   */
  #termWeight(term: string, terms: ReadonlyMap<string, number>): number {
    const tools = this.#documentFrequency.get(term) ?? 1
    const rarity = Math.log(1 + (this.size - tools + 0.5) / (tools + 0.5))
    return rarity * (1 + this.#weights.repeated * Math.log(terms.get(term) ?? 1))
  }

  /**
   * The full-text matches, scaled so the best scores 1, plus the meaning weight times the cosine of the
   * query's and the tool's meaning, among those matches and the tools nearest the query in meaning over
   * all tools: a tool described in other words than the request's can still rank.
   */
  #withMeaning(matches: readonly ToolMatch[], query: Float32Array, limit: number): ToolMatch[] {
    const { names, rows, matrix } = this.#meaningMatrix()
    const weight = this.#weights.meaning
    const scores = new Map<string, number>()
    for (const { row, score } of matrix.nearest(query, this.#weights.meaningDepth)) {
      scores.set(names[row] as string, weight * score)
    }
    const best = matches[0]?.score ?? 1
    for (const match of matches) {
      const row = rows.get(match.name)
      const meaning = row === undefined ? 0 : weight * matrix.similarity(query, row)
      scores.set(match.name, match.score / best + meaning)
    }
    const ranked = new BestScores(limit)
    for (const [name, score] of scores) ranked.offer(name, score)
    return this.#matches(ranked.list())
  }

  #meaningMatrix(): MeaningMatrix {
    if (this.#matrix !== undefined) return this.#matrix
    const names: string[] = []
    const meanings: Array<Float32Array | undefined> = []
    for (const [name, { meaning }] of this.#indexed) {
      names.push(name)
      meanings.push(meaning)
    }
    const dimensions = this.#vectors?.dimensions ?? 0
    this.#matrix = {
      names,
      rows: new Map(names.map((name, row) => [name, row])),
      matrix: VectorMatrix.of(dimensions, meanings),
    }
    return this.#matrix
  }

  /** How many tools the index holds. */
  get size(): number {
    return this.#indexed.size
  }
}

/** Every tool's meaning, row by row, and which tool each row is. */
interface MeaningMatrix {
  names: string[]
  rows: Map<string, number>
  matrix: VectorMatrix
}

interface Indexed {
  tool: Tool
  key: string
  /** Its server's text, by which the server index knows it. */
  server: string | undefined
  /** The distinct terms of its document, all fields together. */
  terms: string[]
  /** With word vectors: the meaning of its name, description and server. */
  meaning: Float32Array | undefined
}

const MAX_CACHED_SOURCES = 1_000

function distinctTerms(document: ToolDocument, server: readonly string[] = []): string[] {
  const terms = new Set<string>(server)
  for (const field of FIELDS) for (const term of document[field]) terms.add(term)
  return [...terms]
}

function splitTerms(text: string): string[] {
  return text === '' ? [] : text.split(' ')
}
