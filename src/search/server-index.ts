import MiniSearch, { type SearchOptions } from 'minisearch'

/** One server's text, as its terms, and the tools of the index that belong to it. */
interface ServerEntry {
  terms: string[]
  tools: Set<string>
}

/** A server that matched a query: its tools and its score. */
export interface ServerMatch {
  /** The server's text, by which its tools know it. */
  key: string
  tools: ReadonlySet<string>
  /** Its BM25 score, before MiniSearch multiplies it by the number of query terms matched. */
  score: number
  /** The query terms it matched. */
  terms: string[]
}

/**
 * The servers of the indexed tools, each indexed once (its name and description), however many tools it
 * has: a server's text is read by one document, not copied into each of its tools.
 *
 * @example
 * const servers = new ServerIndex()
 * servers.add('github Issues and pull requests', ['github', 'issu', 'pull', 'request'], 'github_create_issue')
 * servers.search('github', { combineWith: 'OR' }) // [{ tools: Set { 'github_create_issue' }, score: 1.4 }]
 */
export class ServerIndex {
  readonly #search = new MiniSearch<{ id: string; source: string[] }>({
    fields: ['source'],
    storeFields: [],
    // As for tools: documents hold their terms, queries are their terms joined by spaces.
    stringifyField: (terms) => terms,
    tokenize: (terms) => terms as unknown as string[],
    processTerm: (term) => term,
    searchOptions: { tokenize: (text) => (text === '' ? [] : text.split(' ')), processTerm: (term) => term },
  })
  readonly #servers = new Map<string, ServerEntry>()

  /** Counts `tool` as one of the server's tools, indexing the server when it is new. */
  add(key: string, terms: string[], tool: string): void {
    const known = this.#servers.get(key)
    if (known !== undefined) {
      known.tools.add(tool)
      return
    }
    this.#servers.set(key, { terms, tools: new Set([tool]) })
    this.#search.add({ id: key, source: terms })
  }

  /** Drops `tool` from the server's tools, and the server with its last tool. */
  remove(key: string, tool: string): void {
    const known = this.#servers.get(key)
    if (known === undefined) return
    known.tools.delete(tool)
    if (known.tools.size > 0) return
    this.#servers.delete(key)
    this.#search.discard(key)
  }

  /** The servers matching `query` (terms joined by spaces), best first. */
  search(query: string, options: SearchOptions): ServerMatch[] {
    if (this.#servers.size === 0) return []
    const matches: ServerMatch[] = []
    for (const hit of this.#search.search(query, options)) {
      const known = this.#servers.get(String(hit.id))
      if (known !== undefined)
        matches.push({
          key: String(hit.id),
          tools: known.tools,
          score: hit.score / hit.queryTerms.length,
          terms: hit.queryTerms,
        })
    }
    return matches
  }
}
