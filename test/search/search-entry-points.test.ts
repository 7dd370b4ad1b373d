// Tool search through the other entry points (the provider form, the chat handler), tk.search itself,
// and the index following an MCP server's tools/list_changed.
import { join } from 'node:path'
import { createOpenAI } from '@ai-sdk/openai'
import { generateText } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { ConfigError } from '../../src/errors.js'
import { createChatHandler } from '../../src/next/index.js'
import { withToolkit } from '../../src/provider-form/with-toolkit.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { FIXTURES, recordingLogger } from '../mcp/mcp-fixtures.js'
import { chatThrough, userMessage } from '../next/ui-stream.js'
import { openaiChatProtocol } from '../support/scripted-openai.js'
import { startScriptedServer } from '../support/scripted-server.js'
import { declaredNames, FOUND, sampleTools, searchThenCall } from './sample-tools.js'

const PINNED = 'pdf-reader-mcp_read_pdf'
const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

async function searchingToolkit(): Promise<Toolkit> {
  const toolkit = await createToolkit({ tools: sampleTools(), search: { alwaysLoaded: [PINNED], limit: 3 } })
  closers.push(() => toolkit.close())
  return toolkit
}

async function scriptedChat() {
  const server = await startScriptedServer({ protocol: openaiChatProtocol, script: searchThenCall })
  closers.push(() => server.close())
  return { server, model: createOpenAI({ baseURL: server.url, apiKey: 'k' }).chat('gpt-scripted') }
}

const GROWING = [
  [PINNED, 'search_tools'],
  [PINNED, 'search_tools', ...FOUND],
  [PINNED, 'search_tools', ...FOUND],
]

describe('tool search through every entry point', () => {
  it('the provider form (withToolkit): the inner model sees search_tools, then the found tools appended', async () => {
    const { server, model } = await scriptedChat()
    const result = await generateText({
      model: withToolkit(model, { toolkit: await searchingToolkit() }),
      prompt: 'How is NVDA doing?',
    })
    expect(result.text).toBe('NVDA is up.')
    expect(server.requests.map(declaredNames)).toStrictEqual(GROWING)
  })

  it('the chat handler: the same requests, and the UI message shows the search and the call', async () => {
    const { server, model } = await scriptedChat()
    const handler = createChatHandler({ client: createClient({ model }), toolkit: await searchingToolkit() })
    const exchange = await chatThrough(handler, [userMessage('u1', 'How is NVDA doing?')])
    expect(server.requests.map(declaredNames)).toStrictEqual(GROWING)
    const tools = (exchange.message?.parts ?? []).flatMap((part) =>
      part.type === 'dynamic-tool' ? [[part.toolName, part.state]] : [],
    )
    expect(tools).toStrictEqual([
      ['search_tools', 'output-available'],
      ['yahoo-finance_get_current_stock_price', 'output-available'],
    ])
  })
})

describe('tk.search', () => {
  it.each([
    ['current stock price', 'yahoo-finance_get_current_stock_price'],
    ['read the text of a PDF file', 'pdf-reader-mcp_read_pdf'],
    ['search the web with DuckDuckGo', 'duckduckgo-search_duckduckgo_web_search'],
    // Chinese, segmented into words: "recommend a recipe".
    ['推荐菜谱', 'howtocook-mcp_mcp_howtocook_recommendMeals'],
  ])('%s → %s first', async (query, best) => {
    const toolkit = await createToolkit({ tools: sampleTools() })
    const [first] = await toolkit.search(query, { limit: 1 })
    expect(first?.name).toBe(best)
  })

  it('answers best first, within the limit, with name, description and score', async () => {
    const toolkit = await searchingToolkit()
    const matches = await toolkit.search('stock dividends', { limit: 2 })
    expect(matches.map((match) => Object.keys(match))).toStrictEqual([
      ['name', 'description', 'score'],
      ['name', 'description', 'score'],
    ])
    expect(matches[0]?.name).toBe('yahoo-finance_get_dividends')
    expect(matches[0]?.score).toBeGreaterThan(matches[1]?.score ?? Number.POSITIVE_INFINITY)
    // The toolkit's own limit applies without one, and no request gets more than 50.
    expect(await toolkit.search('stock')).toHaveLength(3)
    expect((await toolkit.search('stock', { limit: 10_000 })).length).toBeLessThanOrEqual(50)
    expect(await toolkit.search('')).toStrictEqual([])
    expect(await toolkit.search('x'.repeat(100_000))).toStrictEqual([])
  })

  it.each([
    [{ limit: 0 }, 'search.limit must be a whole number from 1 to 50'],
    [{ limit: 2.5 }, 'search.limit must be a whole number from 1 to 50'],
    [{ native: 'always' }, "search.native must be 'auto' or 'off'"],
  ])('refuses search %j', async (search, message) => {
    await expect(createToolkit({ search: search as never })).rejects.toThrow(ConfigError)
    await expect(createToolkit({ search: search as never })).rejects.toThrow(message)
  })

  it("follows an MCP server's tools/list_changed: a tool added is found, a tool removed is not", async () => {
    const toolkit = await createToolkit({
      mcpConfig: {
        mcpServers: { box: { command: process.execPath, args: [join(FIXTURES, 'changing-server.mjs')] } },
      },
      logger: recordingLogger().logger,
      search: {},
    })
    closers.push(() => toolkit.close())
    const names = async () =>
      (await toolkit.search('open the vault', { limit: 3 })).map((match) => match.name)
    expect(await names()).not.toContain('box_vault')
    await toolkit.execute('box_unlock', {})
    await expect.poll(() => toolkit.get('box_vault') !== undefined, { timeout: 20_000 }).toBe(true)
    expect((await names())[0]).toBe('box_vault')
    await toolkit.execute('box_lock', {})
    await expect.poll(() => toolkit.get('box_vault') === undefined, { timeout: 20_000 }).toBe(true)
    expect(await names()).not.toContain('box_vault')
  })
})
