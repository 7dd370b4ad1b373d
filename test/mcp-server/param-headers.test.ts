// A served tool whose input schema marks parameters with `x-mcp-header`: a 2026-07-28 call must carry
// them in Mcp-Param-* headers that agree with its arguments. A missing, mismatched, oversized or badly
// encoded header is refused with HTTP 400 and JSON-RPC error -32020 before the tool runs, and the refusal
// repeats no value that was sent. The body is read once, within its bound.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { McpServer, createMcpHandler as sdkMcpHandler } from '@modelcontextprotocol/server'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpHandler, type McpHandlerOptions } from '../../src/mcp-server/create-mcp-handler.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { serveFetch } from './serve-fetch.js'

const MODERN = '2026-07-28'
const closers: Array<() => Promise<unknown>> = []
let runs: Array<Record<string, unknown>>
beforeEach(() => {
  runs = []
})
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {})
})

async function served(options: McpHandlerOptions = {}): Promise<string> {
  const toolkit = await createToolkit({
    tools: [
      defineTool({
        name: 'lookup',
        description: 'Looks a region up.',
        inputSchema: {
          type: 'object',
          properties: {
            region: { type: 'string', 'x-mcp-header': 'Region' },
            shard: { type: 'integer', 'x-mcp-header': 'Shard' },
            query: { type: 'string' },
          },
          required: ['region', 'query'],
        },
        execute: (args) => {
          runs.push(args)
          return `looked up ${String(args.region)}`
        },
      }),
    ],
  })
  closers.push(() => toolkit.close())
  const server = await serveFetch(createMcpHandler({ toolkit, ...options }))
  closers.push(() => server.close())
  return `${server.url}/mcp`
}

/** A 2026-07-28 `tools/call` of `lookup` with these arguments and Mcp-Param-* headers, sent by hand. */
async function call(url: string, args: Record<string, unknown>, params: Record<string, string>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'lookup',
      ...params,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: 'lookup',
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'by-hand', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  })
  return { status: response.status, text: await response.text() }
}

describe.each([
  ['stateful', {}],
  ['stateless', { sessions: 'stateless' }],
] as const)('Mcp-Param-* headers of a served tool (%s)', (_mode, options) => {
  it('a v2 SDK client in 2026-07-28 mode mirrors them, and the call runs', async () => {
    const client = new Client(
      { name: 'modern', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: MODERN } } },
    )
    closers.push(() => client.close())
    await client.connect(new StreamableHTTPClientTransport(new URL(await served(options))))
    await client.listTools()
    const result = await client.callTool({
      name: 'lookup',
      arguments: { region: 'Zürich', shard: 3, query: 'q' },
    })
    expect(result.content).toStrictEqual([{ type: 'text', text: 'looked up Zürich' }])
    expect(runs).toStrictEqual([{ region: 'Zürich', shard: 3, query: 'q' }])
  })

  it('accepts headers that agree, Base64 and integers compared as numbers', async () => {
    const url = await served(options)
    const answer = await call(
      url,
      { region: 'Zürich', shard: 42, query: 'q' },
      { 'mcp-param-region': `=?base64?${btoa('Z\u00c3\u00bcrich')}?=`, 'mcp-param-shard': '42.0' },
    )
    expect(answer.status).toBe(200)
    expect(answer.text).toContain('looked up Zürich')
    expect(runs).toHaveLength(1)
  })

  it.each([
    [
      'missing',
      {},
      'Header mismatch: the Mcp-Param-Region header is missing, and the arguments give "region".',
    ],
    [
      'mismatched',
      { 'mcp-param-region': 'eu-north-secret' },
      'Header mismatch: the Mcp-Param-Region header does not match the argument "region".',
    ],
    [
      'over 4,096 bytes',
      { 'mcp-param-region': 'us-east-secret'.repeat(300) },
      'Header mismatch: the Mcp-Param-Region header is over 4,096 bytes.',
    ],
    [
      'badly encoded',
      { 'mcp-param-region': '=?base64?SGVsbG8?=' },
      'Header mismatch: the Mcp-Param-Region header is not a valid value (plain visible ASCII, or =?base64?…?= of UTF-8 text).',
    ],
  ])(
    'refuses a header that is %s with 400 and -32020, repeating no value, and runs nothing',
    async (_case, headers, message) => {
      const url = await served(options)
      const region = 'us-east-secret'.repeat(300)
      const answer = await call(url, { region, query: 'q' }, headers)
      expect(answer.status).toBe(400)
      expect(JSON.parse(answer.text)).toStrictEqual({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32020, message },
      })
      expect(answer.text).not.toContain('secret')
      expect(runs).toStrictEqual([])
    },
  )

  it('checks an integer argument too, and expects no header for one not given', async () => {
    const url = await served(options)
    const wrong = await call(
      url,
      { region: 'eu', shard: 2, query: 'q' },
      { 'mcp-param-region': 'eu', 'mcp-param-shard': '3' },
    )
    expect([wrong.status, JSON.parse(wrong.text).error.message]).toStrictEqual([
      400,
      'Header mismatch: the Mcp-Param-Shard header does not match the argument "shard".',
    ])
    const absent = await call(url, { region: 'eu', query: 'q' }, { 'mcp-param-region': 'eu' })
    expect(absent.status).toBe(200)
    expect(runs).toStrictEqual([{ region: 'eu', query: 'q' }])
  })

  it('refuses a body over 4 MiB unread, with 413', async () => {
    const url = await served(options)
    const answer = await call(
      url,
      { region: 'eu', query: 'x'.repeat(4 * 1024 * 1024) },
      { 'mcp-param-region': 'eu' },
    )
    expect(answer.status).toBe(413)
    expect(runs).toStrictEqual([])
  })
})

it('a gateway checks the headers of an upstream tool it serves, and the upstream call carries them again', async () => {
  // The upstream server is on the v2 SDK, whose handler refuses a 2026-07-28 call without the headers.
  const upstreamHeaders: Array<string | null> = []
  const handler = sdkMcpHandler(
    () => {
      const server = new McpServer(
        { name: 'regions', version: '1.0.0' },
        { supportedProtocolVersions: ['2026-07-28'] },
      )
      server.registerTool(
        'lookup',
        {
          description: 'Looks a region up',
          inputSchema: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) }),
        },
        async ({ region }) => ({ content: [{ type: 'text', text: `upstream ${region}` }] }),
      )
      return server
    },
    { legacy: 'reject' },
  )
  const upstream = await serveFetch(async (request) => {
    if (request.method === 'POST' && request.headers.get('mcp-method') === 'tools/call') {
      upstreamHeaders.push(request.headers.get('mcp-param-region'))
    }
    return handler.fetch(request)
  })
  closers.push(() => upstream.close())
  const toolkit = await createToolkit({
    logger: { warn: () => undefined },
    mcpConfig: { mcpServers: { up: { url: `${upstream.url}/mcp` } } },
  })
  closers.push(() => toolkit.close())
  const gateway = await serveFetch(createMcpHandler({ toolkit }))
  closers.push(() => gateway.close())
  const url = `${gateway.url}/mcp`

  const client = new Client(
    { name: 'modern', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN } } },
  )
  closers.push(() => client.close())
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  const listed = (await client.listTools()).tools.find((tool) => tool.name === 'up_lookup')
  expect(listed?.inputSchema.properties?.region).toMatchObject({ 'x-mcp-header': 'Region' })
  const result = await client.callTool({ name: 'up_lookup', arguments: { region: 'Zürich' } })
  expect(result.content).toStrictEqual([{ type: 'text', text: 'upstream Zürich' }])
  expect(upstreamHeaders).toStrictEqual([`=?base64?${btoa('Z\u00c3\u00bcrich')}?=`])

  // Sent without its header, the call is refused at the gateway: the upstream server is not asked.
  const refused = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'up_lookup',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'up_lookup',
        arguments: { region: 'eu' },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'by-hand', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  })
  expect(refused.status).toBe(400)
  expect(upstreamHeaders).toHaveLength(1)
}, 60_000)
