import MiniSearch, { type SearchOptions } from 'minisearch'
import type { JSONSchema, Tool } from '../tool/types.js'
import { definitionKey } from './definition-key.js'
import { searchTerms } from './search-terms.js'

/** One tool a search found: its exposed name, its description and how well it matched (higher is better). */
export interface ToolMatch {
  name: string
  description: string
  score: number
}

/** The text of one tool the index reads, field by field. */
interface ToolDocument {
  id: string
  name: string
  description: string
  params: string
  source: string
}

/** How the fields weigh against each other, and how a query term may match. */
export interface RankingWeights {
  name: number
  description: number
  params: number
  source: number
  /** BM25's term-frequency saturation and length normalization. */
  k: number
  b: number
}

const DEFAULT_WEIGHTS: RankingWeights = {
  name: 3,
  description: 1.5,
  params: 0.5,
  source: 1,
  k: 1.2,
  b: 0.5,
}

const FIELDS = ['name', 'description', 'params', 'source'] as const
// Bounds on what one schema adds to the index, so a huge or deeply nested schema stays cheap.
const MAX_PARAM_DEPTH = 3
const MAX_PARAMS = 64

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
  readonly #options: SearchOptions
  // The definition each indexed tool had, so an update re-indexes only what changed.
  #indexed = new Map<string, Indexed>()

  constructor(weights: RankingWeights = DEFAULT_WEIGHTS) {
    this.#search = new MiniSearch<ToolDocument>({
      fields: [...FIELDS],
      storeFields: [],
      // Documents arrive as their terms, space-separated, made once by the tokenizer below.
      tokenize: splitTerms,
      processTerm: (term) => term,
      searchOptions: { tokenize: queryTerms, processTerm: (term) => term },
    })
    this.#options = {
      boost: {
        name: weights.name,
        description: weights.description,
        params: weights.params,
        source: weights.source,
      },
      // Whole terms only: prefix and fuzzy matching multiply the work per query term and, measured on the
      // tuning part of the benchmarks, found nothing more.
      combineWith: 'OR',
      bm25: { k: weights.k, b: weights.b, d: 0.5 },
    }
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
      if (known !== undefined) this.#search.discard(tool.name)
      next.set(tool.name, { tool, key: definitionKey(tool) })
      added.push(toolDocument(tool))
    }
    for (const name of this.#indexed.keys()) if (!next.has(name)) this.#search.discard(name)
    this.#search.addAll(added)
    this.#indexed = next
  }

  /** The tools best matching `query`, best first, at most `limit`. */
  search(query: string, limit: number): ToolMatch[] {
    const matches: ToolMatch[] = []
    for (const hit of this.#search.search(query, this.#options)) {
      if (matches.length >= limit) break
      const tool = this.#indexed.get(String(hit.id))?.tool
      if (tool !== undefined)
        matches.push({ name: tool.name, description: tool.description, score: hit.score })
    }
    return matches
  }

  /** How many tools the index holds. */
  get size(): number {
    return this.#indexed.size
  }
}

interface Indexed {
  tool: Tool
  key: string
}

function toolDocument(tool: Tool): ToolDocument {
  const params: string[] = []
  collectParams(tool.inputSchema, params, 0)
  const name = searchTerms(tool.name)
  const description = searchTerms(typeof tool.description === 'string' ? tool.description : '')
  const source = tool.server === undefined ? '' : `${tool.server.name} ${tool.server.description ?? ''}`
  return {
    id: tool.name,
    name: name.join(' '),
    description: description.join(' '),
    params: searchTerms(params.join(' ')).join(' '),
    source: searchTerms(source).join(' '),
  }
}

// A query's distinct terms, at most this many: each one costs a pass over its postings.
const MAX_QUERY_TERMS = 32

function queryTerms(text: string): string[] {
  return [...new Set(searchTerms(text))].slice(0, MAX_QUERY_TERMS)
}

function splitTerms(text: string): string[] {
  return text === '' ? [] : text.split(' ')
}

/** Parameter names and descriptions, nested objects and array items included, within fixed bounds. */
function collectParams(schema: JSONSchema, into: string[], depth: number): void {
  if (depth >= MAX_PARAM_DEPTH) return
  const properties = schema.properties
  if (typeof properties === 'object' && properties !== null) {
    for (const [name, property] of Object.entries(properties)) {
      if (into.length >= MAX_PARAMS * 2) return
      into.push(name)
      if (typeof property !== 'object' || property === null) continue
      const described = (property as JSONSchema).description
      if (typeof described === 'string') into.push(described)
      collectParams(property as JSONSchema, into, depth + 1)
    }
  }
  const items = schema.items
  if (typeof items === 'object' && items !== null && !Array.isArray(items)) {
    collectParams(items as JSONSchema, into, depth + 1)
  }
}
