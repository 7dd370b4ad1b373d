import type { EmbeddingModel } from 'ai'
import { ConfigError } from '../errors.js'
import type { Tool } from '../tool/types.js'
import { definitionKey } from './definition-key.js'
import type { ToolIndex, ToolMatch } from './tool-index.js'
import type { WordVectors } from './word-vectors.js'

/**
 * What `createToolkit({ search })` takes: the loop then sends the `alwaysLoaded` tools and one
 * `search_tools` tool, and the tools a search finds join the request from the next step on.
 *
 * @example
 * const search: ToolSearchOptions = { alwaysLoaded: ['read_file'], limit: 8, native: 'auto' }
 */
export interface ToolSearchOptions {
  /** Exposed names sent on every request, before any search. @default [] */
  alwaysLoaded?: readonly string[]
  /** How many tools one search returns (and loads). @default 8 */
  limit?: number
  /**
   * `'auto'`: where the provider searches tools itself (Anthropic's tool search tool with deferred
   * tools, OpenAI Responses' tool search), send every tool deferred and let it; elsewhere, `search_tools`.
   * @default 'off'
   */
  native?: 'auto' | 'off'
  /**
   * An AI SDK embedding model whose vectors are fused with the full-text ranking. Each tool is embedded
   * once per definition (kept while its definition stays the same); each search embeds its query.
   */
  embeddings?: EmbeddingModel
  /**
   * English word vectors (`createWordVectors`): each tool's and each query's words are also matched by
   * meaning, offline, so a request in other words than a tool's description can find it.
   */
  wordVectors?: WordVectors
}

/** The options of one `tk.search` call. */
export interface SearchCallOptions {
  /** At most this many tools. @default the toolkit's `search.limit`, else 8 */
  limit?: number
}

export const DEFAULT_SEARCH_LIMIT = 8
// Bounds on what a model (or a client) may ask of one search.
export const MAX_SEARCH_LIMIT = 50
const MAX_QUERY_CHARS = 1_000
// How deep the full-text ranking goes before the vector ranking is fused with it.
const FUSION_DEPTH = 50
// Reciprocal rank fusion's constant: ranks far down either list still count, but little.
const FUSION_K = 60

/** The toolkit's search options, checked once; a wrong value fails `createToolkit` with what to change. */
export function readSearchOptions(options: ToolSearchOptions | undefined): ToolSearchOptions | undefined {
  if (options === undefined) return undefined
  const { limit, native, alwaysLoaded, wordVectors } = options
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= MAX_SEARCH_LIMIT)) {
    throw new ConfigError(
      `search.limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}, got ${String(limit)}.`,
      {
        field: 'search.limit',
      },
    )
  }
  if (native !== undefined && native !== 'auto' && native !== 'off') {
    throw new ConfigError(`search.native must be 'auto' or 'off', got ${JSON.stringify(native)}.`, {
      field: 'search.native',
    })
  }
  if (alwaysLoaded !== undefined && !alwaysLoaded.every((name) => typeof name === 'string')) {
    throw new ConfigError('search.alwaysLoaded must list tool names (strings).', {
      field: 'search.alwaysLoaded',
    })
  }
  if (
    wordVectors !== undefined &&
    !(wordVectors.rows instanceof Map && wordVectors.vectors instanceof Float32Array)
  ) {
    throw new ConfigError('search.wordVectors must be made by createWordVectors(…).', {
      field: 'search.wordVectors',
    })
  }
  return options
}

/**
 * The toolkit's search: a full-text index over its tools, brought up to date with the toolkit's list on
 * each search (so a server's `list_changed` is seen by the next one), optionally fused with embeddings.
 */
export class ToolSearch {
  readonly #index: ToolIndex
  readonly #embeddings: EmbeddingModel | undefined
  // Vectors by tool definition: a tool is embedded again only when its definition changes.
  readonly #vectors = new Map<string, number[]>()
  #indexed: readonly Tool[] | undefined

  constructor(index: ToolIndex, embeddings: EmbeddingModel | undefined) {
    this.#index = index
    this.#embeddings = embeddings
  }

  /** The tools best matching `query` among `tools`, best first. */
  async search(tools: readonly Tool[], query: string, limit: number): Promise<ToolMatch[]> {
    if (this.#indexed !== tools) {
      this.#index.update(tools)
      this.#indexed = tools
    }
    const text = query.slice(0, MAX_QUERY_CHARS)
    if (this.#embeddings === undefined) return this.#index.search(text, limit)
    return this.#fused(tools, text, limit)
  }

  async #fused(tools: readonly Tool[], query: string, limit: number): Promise<ToolMatch[]> {
    const { embed, embedMany } = await import('ai')
    const model = this.#embeddings as EmbeddingModel
    const keys = tools.map((tool) => definitionKey(tool))
    const missing = tools.filter((_, index) => !this.#vectors.has(keys[index] as string))
    if (missing.length > 0) {
      const { embeddings } = await embedMany({ model, values: missing.map(embeddingText) })
      for (const [index, tool] of missing.entries()) {
        const vector = embeddings[index]
        if (vector !== undefined) this.#vectors.set(definitionKey(tool), vector)
      }
    }
    const { embedding } = await embed({ model, value: query })
    const scores = new Map<string, number>()
    for (const [rank, match] of this.#index.search(query, FUSION_DEPTH).entries()) {
      scores.set(match.name, 1 / (FUSION_K + rank + 1))
    }
    const similar = tools
      .map((tool, index) => ({
        tool,
        similarity: cosine(embedding, this.#vectors.get(keys[index] as string)),
      }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, FUSION_DEPTH)
    for (const [rank, { tool }] of similar.entries()) {
      scores.set(tool.name, (scores.get(tool.name) ?? 0) + 1 / (FUSION_K + rank + 1))
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]))
    return [...scores]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .flatMap(([name, score]) => {
        const tool = byName.get(name)
        return tool === undefined ? [] : [{ name, description: tool.description, score }]
      })
  }
}

/** The text a tool is embedded by: its name, its server and its description. */
function embeddingText(tool: Tool): string {
  const server = tool.server === undefined ? '' : ` (${tool.server.name})`
  return `${tool.name}${server}: ${tool.description}`
}

function cosine(a: readonly number[], b: readonly number[] | undefined): number {
  if (b === undefined || a.length !== b.length) return -1
  let dot = 0
  let left = 0
  let right = 0
  for (let index = 0; index < a.length; index++) {
    const x = a[index] as number
    const y = b[index] as number
    dot += x * y
    left += x * x
    right += y * y
  }
  return left === 0 || right === 0 ? 0 : dot / Math.sqrt(left * right)
}
