import { describe, expect, it } from 'vitest'
import { DEFAULT_WEIGHTS } from '../../src/search/ranking-weights.js'
import { ToolIndex } from '../../src/search/tool-index.js'
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

// Twenty tools that read files, one that also sends mail, one that only sends mail.
const tools = [
  ...Array.from({ length: 20 }, (_, index) => tool(`reader_${index}`, 'Read a file from the disk.')),
  tool('mail_file', 'Send a file by mail.'),
  tool('mail_send', 'Send a mail.'),
]

describe('ToolIndex', () => {
  it.each([
    // Within the budget the common term ranks too: the tool with both terms comes first.
    { maxPostings: 1_000, first: ['mail_file', 'mail_send'] },
    // Over it, only the rarest term is searched: the two mail tools, and no file reader.
    { maxPostings: 5, first: ['mail_file', 'mail_send'] },
  ])('searches a query by its rarest terms within maxPostings $maxPostings', ({ maxPostings, first }) => {
    const index = new ToolIndex({ ...DEFAULT_WEIGHTS, maxPostings })
    index.update(tools)
    const names = index.search('mail the file', 10).map((match) => match.name)
    expect(names.slice(0, 2).sort()).toStrictEqual(first)
    expect(names.length).toStrictEqual(maxPostings === 5 ? 2 : 10)
  })

  it('counts a term only in the tools that still have it after an update', () => {
    const index = new ToolIndex({ ...DEFAULT_WEIGHTS, maxPostings: 3 })
    index.update(tools)
    // Twenty-one tools say "file": over the budget, so "mail" alone is searched.
    expect(index.search('mail file', 10).length).toStrictEqual(2)
    // With the readers gone, "file" is in one tool: both terms fit and are searched.
    const remaining = tools.filter((entry) => entry.name.startsWith('mail_'))
    index.update(remaining)
    expect(index.search('file', 10).map((match) => match.name)).toStrictEqual(['mail_file'])
    // A changed description is counted once, by its new terms.
    index.update([tool('mail_file', 'Archive a document.'), remaining[1] as Tool])
    expect(index.search('send', 10).map((match) => match.name)).toStrictEqual(['mail_send'])
    expect(index.search('archive', 10).map((match) => match.name)).toStrictEqual(['mail_file'])
  })
})

describe('ToolIndex query weights', () => {
  it('ranks a tool with the one rare word of a request over one with its common words', () => {
    const index = new ToolIndex()
    index.update([
      tool('topic_lookup', 'Find and provide information.'),
      ...Array.from({ length: 4 }, (_, at) => tool(`finder_${at}`, `Find information about place ${at}.`)),
      ...Array.from({ length: 3 }, (_, at) => tool(`provider_${at}`, `Provide document ${at}.`)),
      tool('currency_convert', 'Convert an amount between currencies.'),
    ])
    // "currency" is in one tool of nine; "find", "provide" and "information" in most of them.
    const names = index
      .search('find and provide information on the franc currency', 2)
      .map((match) => match.name)
    expect(names).toStrictEqual(['currency_convert', 'topic_lookup'])
  })

  it('counts a word the request repeats for more', () => {
    const index = new ToolIndex()
    index.update([tool('mail_send', 'Send a mail.'), tool('file_read', 'Read a file from the disk.')])
    // Each tool has one of the words; the request says "file" twice.
    expect(index.search('the file, that file, and a mail', 2)[0]?.name).toStrictEqual('file_read')
  })
})

describe('ToolIndex servers', () => {
  const served = (name: string, description: string, server: string): Tool => ({
    ...tool(name, description),
    source: 'mcp',
    server: { name: 'web', description: server },
  })

  it('finds a tool by its server, and follows the server through updates', () => {
    const index = new ToolIndex()
    const browser = [
      served('web_click', 'Click an element.', 'Drives a headless browser.'),
      served('web_fill', 'Fill in a field.', 'Drives a headless browser.'),
    ]
    const other = tool('notes_add', 'Add a note.')
    index.update([...browser, other])
    // Neither tool says "browser": its server does.
    expect(
      index
        .search('browser', 5)
        .map((match) => match.name)
        .sort(),
    ).toStrictEqual(['web_click', 'web_fill'])
    // A tool matching by its own words and its server's comes first.
    expect(index.search('fill in the browser', 5)[0]?.name).toStrictEqual('web_fill')
    // One tool of the server gone: the other is still found by the server's words.
    index.update([browser[1] as Tool, other])
    expect(index.search('browser', 5).map((match) => match.name)).toStrictEqual(['web_fill'])
    // The server's only tool changed, the server did not: it is still found by the server's words.
    index.update([served('web_fill', 'Type into a field.', 'Drives a headless browser.'), other])
    expect(index.search('browser', 5).map((match) => match.name)).toStrictEqual(['web_fill'])
    expect(index.search('type', 5).map((match) => match.name)).toStrictEqual(['web_fill'])
    // The server's description changed: its new words find it, its old ones nothing.
    index.update([served('web_fill', 'Fill in a field.', 'Automates a web page.'), other])
    expect(index.search('browser', 5)).toStrictEqual([])
    expect(index.search('automates', 5).map((match) => match.name)).toStrictEqual(['web_fill'])
    // The server's last tool gone: nothing is found by its words.
    index.update([other])
    expect(index.search('automates page', 5)).toStrictEqual([])
  })
})
