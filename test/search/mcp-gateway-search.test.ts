// A gateway with search on: an MCP client sees the always-loaded tools and search_tools, searches, is
// told the list changed, lists the found tools and calls one.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpHandler } from '../../src/mcp-server/index.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { serveFetch } from '../mcp-server/serve-fetch.js'
import { FOUND, loadedNames, sampleTools } from './sample-tools.js'

const PINNED = 'pdf-reader-mcp_read_pdf'
const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

describe('createMcpHandler(toolkit, { search: true })', () => {
  it('serves search_tools, announces what a search found, and runs the found tools', async () => {
    const toolkit = await createToolkit({
      tools: sampleTools(),
      search: { alwaysLoaded: [PINNED], limit: 3 },
    })
    closers.push(() => toolkit.close())
    const server = await serveFetch(createMcpHandler(toolkit, { search: true }))
    closers.push(() => server.close())
    const client = new Client({ name: 'gateway-client', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
    closers.push(() => client.close())
    let changed = 0
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++
    })
    expect(client.getServerCapabilities()?.tools).toStrictEqual({ listChanged: true })
    const before = await client.listTools()
    expect(before.tools.map((tool) => tool.name)).toStrictEqual([PINNED, 'search_tools'])

    const searched = await client.callTool({
      name: 'search_tools',
      arguments: { query: 'current stock price' },
    })
    const text = (searched.content as Array<{ text: string }>)[0]?.text ?? ''
    expect(loadedNames(text)).toStrictEqual(FOUND)
    await expect.poll(() => changed, { timeout: 10_000 }).toBe(1)
    const after = await client.listTools()
    expect(after.tools.map((tool) => tool.name)).toStrictEqual([PINNED, 'search_tools', ...FOUND])

    const called = await client.callTool({ name: FOUND[0] as string, arguments: { symbol: 'NVDA' } })
    expect(called.content).toStrictEqual([
      { type: 'text', text: 'yahoo-finance_get_current_stock_price ran with {"symbol":"NVDA"}' },
    ])
  })

  it('without search, every tool is listed and search_tools is none of them', async () => {
    const toolkit = await createToolkit({ tools: sampleTools(), search: { alwaysLoaded: [PINNED] } })
    closers.push(() => toolkit.close())
    const server = await serveFetch(createMcpHandler(toolkit))
    closers.push(() => server.close())
    const client = new Client({ name: 'gateway-client', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
    closers.push(() => client.close())
    const listed = await client.listTools()
    expect(listed.tools).toHaveLength(19)
    await expect(client.callTool({ name: 'search_tools', arguments: { query: 'x' } })).rejects.toThrow(
      'Unknown tool "search_tools"',
    )
  })
})
