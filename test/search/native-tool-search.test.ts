// `search.native: 'auto'` on providers that search tools themselves: every tool goes out, all but the
// always-loaded ones deferred, with the provider's tool search tool; the provider's search and the call
// it led to come back, the loop runs the call, and the next request carries the search in its history.
import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { openaiChatProtocol } from '../support/scripted-openai.js'
import { type RecordedRequest, startScriptedServer } from '../support/scripted-server.js'
import {
  anthropicToolSearch,
  type NativeSearchPlan,
  openaiToolSearch,
} from '../support/scripted-tool-search.js'
import { sampleTools } from './sample-tools.js'

const PINNED = 'pdf-reader-mcp_read_pdf'
const plan: NativeSearchPlan = {
  pinned: [PINNED],
  found: ['yahoo-finance_get_current_stock_price'],
  args: { symbol: 'NVDA' },
}
const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

async function nativeToolkit(): Promise<Toolkit> {
  const toolkit = await createToolkit({
    tools: sampleTools(),
    search: { alwaysLoaded: [PINNED], native: 'auto' },
  })
  closers.push(() => toolkit.close())
  return toolkit
}

async function serve(protocol: Parameters<typeof startScriptedServer>[0]['protocol']) {
  const server = await startScriptedServer({ protocol, script: () => ({ type: 'reply' }) })
  closers.push(() => server.close())
  return server
}

const names = (tools: Array<{ name?: string; type?: string }>): string[] =>
  tools.map((tool) => String(tool.name ?? tool.type))

describe("search.native: 'auto'", () => {
  it('Anthropic: deferred tools and the BM25 tool search tool; the search stays in the history', async () => {
    const server = await serve(anthropicToolSearch(plan))
    const model = createAnthropic({ baseURL: server.url, apiKey: 'k' })('claude-sonnet-4-5')
    const result = await createClient({ model }).run('How is NVDA doing?', { toolkit: await nativeToolkit() })
    expect(server.requests.map((request) => request.path)).toStrictEqual(['/messages', '/messages'])
    expect(result.text).toBe('done')
    expect(result.toolCalls.map((call) => [call.name, call.output])).toStrictEqual([
      [
        'yahoo-finance_get_current_stock_price',
        'yahoo-finance_get_current_stock_price ran with {"symbol":"NVDA"}',
      ],
    ])
    const [first, second] = server.requests as [RecordedRequest, RecordedRequest]
    expect(first.body.tools).toHaveLength(20)
    expect(first.body.tools.at(-1)).toStrictEqual({
      type: 'tool_search_tool_bm25_20251119',
      name: 'tool_search_tool_bm25',
    })
    expect(first.body.tools.find((tool: { name: string }) => tool.name === plan.found[0])).toStrictEqual({
      name: 'yahoo-finance_get_current_stock_price',
      description: 'Get the current stock price based on stock symbol.',
      input_schema: expect.objectContaining({ type: 'object' }),
      defer_loading: true,
    })
    // The same tools, in the same order, on every request.
    expect(second.body.tools).toStrictEqual(first.body.tools)
    expect(second.body.messages[1].content.map((block: { type: string }) => block.type)).toStrictEqual([
      'server_tool_use',
      'tool_search_tool_result',
      'tool_use',
    ])
  })

  it('OpenAI Responses: deferred functions and the hosted tool_search; the search items go back by reference', async () => {
    const server = await serve(openaiToolSearch(plan))
    const model = createOpenAI({ baseURL: server.url, apiKey: 'k' }).responses('gpt-5.4')
    const result = await createClient({ model }).run('How is NVDA doing?', { toolkit: await nativeToolkit() })
    expect(server.requests.map((request) => request.path)).toStrictEqual(['/responses', '/responses'])
    expect(result.text).toBe('done')
    expect(result.toolCalls.map((call) => call.name)).toStrictEqual(['yahoo-finance_get_current_stock_price'])
    const [first, second] = server.requests as [RecordedRequest, RecordedRequest]
    expect(first.body.tools.at(-1)).toStrictEqual({ type: 'tool_search' })
    expect(
      first.body.tools.find((tool: { name: string }) => tool.name === PINNED).defer_loading,
    ).toBeUndefined()
    // @ai-sdk/openai 4 sends `strict: false`; 3 (with ai 6) leaves it out, which means the same.
    const { strict, ...deferred } = first.body.tools.find(
      (tool: { name: string }) => tool.name === plan.found[0],
    )
    expect([false, undefined]).toContain(strict)
    expect(deferred).toStrictEqual({
      type: 'function',
      name: 'yahoo-finance_get_current_stock_price',
      description: 'Get the current stock price based on stock symbol.',
      parameters: expect.objectContaining({ type: 'object' }),
      defer_loading: true,
    })
    expect(second.body.tools).toStrictEqual(first.body.tools)
    const items = second.body.input.map((item: { type?: string; role?: string; id?: string }) =>
      item.type === 'item_reference' ? `reference ${item.id}` : (item.type ?? item.role),
    )
    expect(items).toStrictEqual([
      'user',
      'reference tsc_1',
      'reference tso_1',
      'function_call',
      'function_call_output',
    ])
  })

  it('a provider without native tool search (Chat Completions) gets search_tools instead', async () => {
    const server = await serve(openaiChatProtocol)
    const model = createOpenAI({ baseURL: server.url, apiKey: 'k' }).chat('gpt-scripted')
    await createClient({ model }).run('hi', { toolkit: await nativeToolkit() })
    expect(
      names(server.requests[0]?.body.tools.map((tool: { function: object }) => tool.function)),
    ).toStrictEqual([PINNED, 'search_tools'])
  })
})
