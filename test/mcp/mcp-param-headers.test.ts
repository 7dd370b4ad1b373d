// A tool whose input schema marks parameters with `x-mcp-header`, on a server built on the v2 SDK over
// HTTP (the SDK's handler refuses a 2026-07-28 call whose Mcp-Param-* headers are missing or disagree
// with its arguments): the toolkit's call carries them, encoded, and a value over 4,096 bytes once encoded is
// refused before anything is sent. The tool's output schema is still checked by the toolkit.
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { type FetchServer, serveFetch } from '../mcp-server/serve-fetch.js'

const toolkits: Toolkit[] = []
const servers: FetchServer[] = []
afterEach(async () => {
  for (const toolkit of toolkits.splice(0)) await toolkit.close()
  for (const server of servers.splice(0)) await server.close()
})

/** Whether the server's `lookup` marks `region` (a server may add the mark after a client listed it). */
interface ServerState {
  marked: boolean
  lists: number
}

function buildServer(modernOnly: boolean, state: ServerState): McpServer {
  const server = new McpServer(
    { name: 'regions', version: '1.0.0' },
    { capabilities: { tools: {} }, ...(modernOnly && { supportedProtocolVersions: ['2026-07-28'] }) },
  )
  server.registerTool(
    'lookup',
    {
      description: 'Looks a region up',
      inputSchema: z.object({
        region: state.marked ? z.string().meta({ 'x-mcp-header': 'Region' }) : z.string(),
        shard: z.number().int().optional().meta({ 'x-mcp-header': 'Shard' }),
        verbose: z.boolean().optional().meta({ 'x-mcp-header': 'Verbose' }),
        query: z.string(),
      }),
      outputSchema: z.object({ region: z.string() }),
    },
    async ({ region, query }) => ({
      content: [{ type: 'text', text: `${region}: ${query}` }],
      structuredContent: { region },
    }),
  )
  return server
}

/** The server over HTTP, keeping the Mcp-Param-* headers of every tools/call it is sent. */
async function serve(modernOnly = false, state: ServerState = { marked: true, lists: 0 }) {
  const calls: Array<Record<string, string>> = []
  const handler = createMcpHandler(() => buildServer(modernOnly, state), {
    legacy: modernOnly ? 'reject' : 'stateless',
  })
  const server = await serveFetch(async (request) => {
    if (request.method === 'POST') {
      const body = (await request.clone().json()) as { method?: string }
      if (body.method === 'tools/list') state.lists++
      if (body.method === 'tools/call') {
        calls.push(Object.fromEntries([...request.headers].filter(([name]) => name.startsWith('mcp-param-'))))
      }
    }
    return handler.fetch(request)
  })
  servers.push(server)
  const toolkit = await createToolkit({
    logger: { warn: () => undefined },
    mcpConfig: {
      mcpServers: {
        regions: { url: `${server.url}/mcp`, ...(modernOnly ? {} : { protocol: '2025-11-25' }) },
      },
    },
  })
  toolkits.push(toolkit)
  return { toolkit, calls }
}

describe('Mcp-Param-* headers on a 2026-07-28 HTTP connection', () => {
  it('carries each marked argument in its header, encoded, and the server runs the call', async () => {
    const { toolkit, calls } = await serve(true)
    const result = await toolkit.execute('regions_lookup', {
      region: 'Zürich ',
      shard: 7,
      verbose: false,
      query: 'SELECT 1',
    })
    expect([result.isError, result.output]).toStrictEqual([false, '{"region":"Zürich "}'])
    expect(calls).toStrictEqual([
      {
        'mcp-param-region': `=?base64?${Buffer.from('Zürich ').toString('base64')}?=`,
        'mcp-param-shard': '7',
        'mcp-param-verbose': 'false',
      },
    ])
  }, 60_000)

  it('leaves out the header of an argument that is not given', async () => {
    const { toolkit, calls } = await serve(true)
    const result = await toolkit.execute('regions_lookup', { region: 'us-west1', query: 'q' })
    expect([result.isError, result.output]).toStrictEqual([false, '{"region":"us-west1"}'])
    expect(calls).toStrictEqual([{ 'mcp-param-region': 'us-west1' }])
  }, 60_000)

  it('refuses, unsent, a value over 4,096 bytes once encoded', async () => {
    const { toolkit, calls } = await serve(true)
    const result = await toolkit.execute('regions_lookup', { region: 'é'.repeat(3000), query: 'q' })
    expect(result.isError).toBe(true)
    expect(result.output).toBe(
      'Tool "lookup" was not called: its argument "region" (sent in the Mcp-Param-Region header) is 8,011 bytes once encoded, over the 4,096-byte limit of a header value.',
    )
    expect(calls).toStrictEqual([])
  }, 60_000)

  it('lists the tools again when the server finds the headers out of date, and sends the call once more', async () => {
    const state = { marked: false, lists: 0 }
    const { toolkit, calls } = await serve(true, state)
    expect(state.lists).toBe(1)
    // The server now mirrors `region`: the call as listed (no header) is refused with -32020.
    state.marked = true
    const result = await toolkit.execute('regions_lookup', { region: 'eu', query: 'q' })
    expect([result.isError, result.output]).toStrictEqual([false, '{"region":"eu"}'])
    expect(calls).toStrictEqual([{}, { 'mcp-param-region': 'eu' }])
    expect(state.lists).toBe(2)
  }, 60_000)

  it('sends no such headers on a 2025 connection, where the revision has none', async () => {
    const { toolkit, calls } = await serve(false)
    const result = await toolkit.execute('regions_lookup', { region: 'é'.repeat(3000), query: 'q' })
    expect(result.isError).toBe(false)
    expect(calls).toStrictEqual([{}])
  }, 60_000)
})
