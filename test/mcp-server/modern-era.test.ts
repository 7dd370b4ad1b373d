// A toolkit served over MCP to a client of the 2026-07-28 era (the v2 SDK client, pinned to that
// revision) over HTTP and stdio, beside a 2025 client (the v1 SDK), and approvals asked as
// multi-round-trip requests.
import { fileURLToPath } from 'node:url'
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from '@modelcontextprotocol/client'
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio'
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpHandler, type McpHandlerOptions } from '../../src/mcp-server/create-mcp-handler.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { serveFetch } from './serve-fetch.js'
import { servedToolkit } from './served-toolkit.js'

const CHILD = fileURLToPath(new URL('./serve-stdio-child.ts', import.meta.url))
const MODERN = '2026-07-28'
const closers: Array<() => Promise<unknown>> = []

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {})
})

async function servedUrl(options: McpHandlerOptions = {}): Promise<URL> {
  const toolkit = await servedToolkit()
  closers.push(() => toolkit.close())
  const server = await serveFetch(createMcpHandler({ toolkit, ...options }))
  closers.push(() => server.close())
  return new URL(`${server.url}/mcp`)
}

function modernClient(capabilities: Record<string, unknown> = {}): ModernClient {
  const client = new ModernClient(
    { name: 'modern-test-client', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: { pin: MODERN } } },
  )
  closers.push(() => client.close())
  return client
}

describe.each([
  ['HTTP, stateful', async () => new ModernHttpTransport(await servedUrl())],
  ['HTTP, stateless', async () => new ModernHttpTransport(await servedUrl({ sessions: 'stateless' }))],
  [
    'stdio',
    async () =>
      new ModernStdioTransport({
        command: process.execPath,
        args: ['--import', 'tsx', CHILD],
        stderr: 'pipe',
      }),
  ],
])('a 2026-07-28 client (v2 SDK) over %s', (_how, transport) => {
  it('negotiates 2026-07-28, lists the tools and calls them', async () => {
    const client = modernClient()
    await client.connect(await transport())

    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN)
    expect((await client.listTools()).tools.map((tool) => tool.name)).toStrictEqual([
      'get_weather',
      'explode',
      'draw',
      'book_trip',
    ])
    const weather = await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } })
    expect(weather.content).toStrictEqual([{ type: 'text', text: 'Sunny in Oslo.' }])
    const failed = await client.callTool({ name: 'explode', arguments: {} })
    expect([failed.isError, JSON.stringify(failed.content)]).toStrictEqual([
      true,
      expect.stringContaining('kaboom'),
    ])
  })
})

it('a 2025 client (v1 SDK) and a 2026-07-28 client share one handler, each in its own era', async () => {
  const url = await servedUrl()
  const legacy = new LegacyClient({ name: 'legacy-test-client', version: '1.0.0' })
  closers.push(() => legacy.close())
  await legacy.connect(new LegacyHttpTransport(url))
  const modern = modernClient()
  await modern.connect(new ModernHttpTransport(url))

  expect([legacy.transport?.sessionId !== undefined, modern.getNegotiatedProtocolVersion()]).toStrictEqual([
    true,
    MODERN,
  ])
  const calls = await Promise.all(
    [legacy, modern].map((client) => client.callTool({ name: 'get_weather', arguments: { city: 'Lima' } })),
  )
  expect(calls.map((call) => call.content)).toStrictEqual([
    [{ type: 'text', text: 'Sunny in Lima.' }],
    [{ type: 'text', text: 'Sunny in Lima.' }],
  ])
})

describe('approvals asked of a 2026-07-28 client', () => {
  async function approvalUrl(options: McpHandlerOptions = {}): Promise<{ url: URL; ran: string[] }> {
    const ran: string[] = []
    const toolkit = await createToolkit({
      logger: { warn: () => {} },
      tools: [
        defineTool({
          name: 'delete_file',
          description: 'Deletes a file.',
          inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
          needsApproval: true,
          execute: ({ path }) => {
            ran.push(String(path))
            return `Deleted ${String(path)}.`
          },
        }),
      ],
    })
    closers.push(() => toolkit.close())
    const server = await serveFetch(createMcpHandler({ toolkit, authorize: () => true, ...options }))
    closers.push(() => server.close())
    return { url: new URL(`${server.url}/mcp`), ran }
  }

  it.each([
    ['stateful', {}],
    ['stateless', { sessions: 'stateless' }],
  ] as const)(
    'asks through input_required (%s handler): yes runs the call, no does not',
    async (_how, options) => {
      const { url, ran } = await approvalUrl(options)
      const answers = [{ approve: true }, { approve: false }]
      const questions: string[] = []
      const client = modernClient({ elicitation: { form: {} } })
      client.setRequestHandler('elicitation/create', (request) => {
        questions.push(request.params.message)
        return { action: 'accept', content: answers.shift() ?? {} }
      })
      await client.connect(new ModernHttpTransport(url))

      const yes = await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/a' } })
      const no = await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/b' } })

      expect([yes.content, no.isError, no.content]).toStrictEqual([
        [{ type: 'text', text: 'Deleted /tmp/a.' }],
        true,
        [
          {
            type: 'text',
            text: 'The call of tool "delete_file" was not approved by the user. It was not run.',
          },
        ],
      ])
      expect(questions).toStrictEqual([
        'Allow the tool "delete_file" to run with these arguments?\n{"path":"/tmp/a"}',
        'Allow the tool "delete_file" to run with these arguments?\n{"path":"/tmp/b"}',
      ])
      expect(ran).toStrictEqual(['/tmp/a'])
    },
  )

  /** A raw 2026-07-28 `tools/call`, as a client that forges its answers would send it. */
  async function rawCall(url: URL, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': 'delete_file',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
          },
        },
      }),
    })
    return (await response.json()) as Record<string, unknown>
  }

  it('an answer counts only with the sealed question it answers: forged, moved or tampered, the call is not run', async () => {
    const { url, ran } = await approvalUrl()
    const yes = { approval: { action: 'accept', content: { approve: true } } }
    const asked = await rawCall(url, { name: 'delete_file', arguments: { path: '/tmp/a' } })
    const state = (asked.result as { requestState: string }).requestState

    // An answer with no question: asked again.
    const forged = await rawCall(url, {
      name: 'delete_file',
      arguments: { path: '/tmp/a' },
      inputResponses: yes,
    })
    // The question for /tmp/a, answered for /tmp/b: asked again.
    const moved = await rawCall(url, {
      name: 'delete_file',
      arguments: { path: '/tmp/b' },
      inputResponses: yes,
      requestState: state,
    })
    // A state the server did not seal: refused before the tool is looked at.
    const tampered = await rawCall(url, {
      name: 'delete_file',
      arguments: { path: '/tmp/a' },
      inputResponses: yes,
      requestState: `${state.slice(0, -2)}xx`,
    })

    expect(
      [asked, forged, moved].map((answer) => (answer.result as { resultType?: string }).resultType),
    ).toStrictEqual(['input_required', 'input_required', 'input_required'])
    expect((tampered.error as { code: number }).code).toBe(-32602)
    expect(ran).toStrictEqual([])
  })
})
