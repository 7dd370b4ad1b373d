import { describe, expect, it } from 'vitest'
import { DEFAULT_WEIGHTS } from '../../src/search/ranking-weights.js'
import { withServerCoherence } from '../../src/search/server-coherence.js'
import { ToolIndex } from '../../src/search/tool-index.js'
import type { Tool } from '../../src/tool/types.js'

const options = { weight: 0.3, members: 2, limit: 3 }

describe('withServerCoherence', () => {
  it.each([
    {
      case: 'a server with two matches lifts its third tool over a native one',
      candidates: [
        { name: 'browser_open', score: 2, server: 'browser' },
        { name: 'file_read', score: 1.9, server: undefined },
        { name: 'browser_fill', score: 1.8, server: 'browser' },
        { name: 'browser_read', score: 1.6, server: 'browser' },
      ],
      ranked: ['browser_open', 'browser_fill', 'browser_read'],
    },
    {
      case: "a server's one match ranks as a native tool would",
      candidates: [
        { name: 'file_read', score: 2, server: undefined },
        { name: 'prices_stock', score: 1.9, server: 'prices' },
        { name: 'notes_add', score: 1.8, server: undefined },
        { name: 'mail_send', score: 1.7, server: 'mail' },
      ],
      ranked: ['file_read', 'prices_stock', 'notes_add'],
    },
    {
      case: 'weight 0 keeps the order',
      weight: 0,
      candidates: [
        { name: 'browser_open', score: 2, server: 'browser' },
        { name: 'file_read', score: 1.9, server: undefined },
        { name: 'browser_fill', score: 1.8, server: 'browser' },
      ],
      ranked: ['browser_open', 'file_read', 'browser_fill'],
    },
  ])('$case', ({ candidates, ranked, weight }) => {
    const result = withServerCoherence(candidates, { ...options, weight: weight ?? options.weight })
    expect(result.map((match) => match.name)).toStrictEqual(ranked)
  })

  it('scales the scores so the best candidate scores 1 plus its server lift', () => {
    const result = withServerCoherence(
      [
        { name: 'a', score: 4, server: 's' },
        { name: 'b', score: 2, server: 's' },
      ],
      options,
    )
    // Each gains 0.3 × (1 + 0.5).
    expect(result).toStrictEqual([
      { name: 'a', score: 1 + 0.3 * 1.5 },
      { name: 'b', score: 0.5 + 0.3 * 1.5 },
    ])
  })

  it('answers nothing for no candidates', () => {
    expect(withServerCoherence([], options)).toStrictEqual([])
  })
})

function tool(name: string, description: string, server?: string): Tool {
  return {
    name,
    description,
    inputSchema: { type: 'object', properties: {} },
    source: server === undefined ? 'native' : 'mcp',
    ...(server !== undefined && { server: { name: server, description: `The ${server} server.` } }),
    execute: async () => ({ output: name, isError: false }),
  }
}

// A browser server whose tools a shopping request needs together, beside tools that share its words.
const tools = [
  tool('browser_navigate', 'Navigate to a URL.', 'browser'),
  tool('browser_fill', 'Fill out an input field on the page.', 'browser'),
  tool('browser_visible_text', 'Get the visible text of the current page.', 'browser'),
  tool('browser_close', 'Close the browser.', 'browser'),
  tool('pdf_pages', 'Count the pages of a PDF file.'),
  tool('form_builder', 'Build a form with an input field for each question.'),
  tool('prices_stock', 'The current price of a stock.', 'prices'),
]

describe('ToolIndex with server coherence', () => {
  const query = 'go to the shop page, fill the search input and tell me the prices'

  it("ranks a server's tools that match together above tools that match alone", () => {
    const index = new ToolIndex()
    index.update(tools)
    const names = index.search(query, 3).map((match) => match.name)
    // The page's text matched one word of the request, but its server matched the request best.
    expect(names).toStrictEqual(['browser_fill', 'browser_visible_text', 'prices_stock'])
  })

  it('ranks by each tool alone with coherence 0', () => {
    const index = new ToolIndex({ ...DEFAULT_WEIGHTS, coherence: 0 })
    index.update(tools)
    const names = index.search(query, 3).map((match) => match.name)
    expect(names).toStrictEqual(['browser_fill', 'prices_stock', 'pdf_pages'])
  })
})
