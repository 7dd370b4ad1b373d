import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema, type ElicitResult, McpError } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/errors.js'
import { createMcpHandler, type McpHandlerOptions } from '../../src/mcp-server/create-mcp-handler.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import type { CheckedCall } from '../../src/toolkit/toolkit.js'
import { wrappedToolkit } from '../support/wrapped-toolkit.js'
import { type FetchServer, serveFetch } from './serve-fetch.js'
import { RED_PIXEL, servedToolkit, TRIP_SCHEMA } from './served-toolkit.js'

const CHILD = fileURLToPath(new URL('./serve-stdio-child.ts', import.meta.url))
const closers: Array<() => Promise<unknown>> = []

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {})
})

async function served(options: McpHandlerOptions = {}): Promise<{ server: FetchServer; toolkit: Toolkit }> {
  const toolkit = await servedToolkit()
  closers.push(() => toolkit.close())
  const server = await serveFetch(createMcpHandler(toolkit, options))
  closers.push(() => server.close())
  return { server, toolkit }
}

async function sdkClientOverHttp(url: string): Promise<Client> {
  const client = new Client({ name: 'sdk-test-client', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)))
  closers.push(() => client.close())
  return client
}

async function sdkClientOverStdio(): Promise<Client> {
  const client = new Client({ name: 'sdk-test-client', version: '1.0.0' })
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', CHILD], stderr: 'pipe' }),
  )
  closers.push(() => client.close())
  return client
}

const EXPECTED_TOOLS = [
  {
    name: 'get_weather',
    title: 'Weather',
    description: 'Current weather for a city.',
    inputSchema: {
      type: 'object',
      properties: { city: { type: 'string', description: 'City name' } },
      required: ['city'],
      additionalProperties: false,
    },
    annotations: { title: 'Weather', readOnlyHint: true, openWorldHint: true },
  },
  {
    name: 'explode',
    description: 'Always fails.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { destructiveHint: true },
  },
  { name: 'draw', description: 'Draws a red pixel.', inputSchema: { type: 'object', properties: {} } },
  { name: 'book_trip', description: 'Books a trip.', inputSchema: TRIP_SCHEMA },
]

describe.each([
  ['streamable HTTP, stateful', () => served().then(({ server }) => sdkClientOverHttp(server.url))],
  [
    'streamable HTTP, stateless',
    () => served({ sessions: 'stateless' }).then(({ server }) => sdkClientOverHttp(server.url)),
  ],
  ['stdio', () => sdkClientOverStdio()],
])('the MCP SDK client over %s', (_transport, start) => {
  // One connection for the block: a stdio server is a child process, slow to start on a loaded machine.
  const suite: Array<() => Promise<unknown>> = []
  let shared: Promise<Client> | undefined
  const connect = (): Promise<Client> => {
    shared ??= (async () => {
      const client = await start()
      // Taken over from `closers`, which empties after each test.
      suite.push(...closers.splice(0))
      return client
    })()
    return shared
  }
  afterAll(async () => {
    for (const close of suite.splice(0).reverse()) await close().catch(() => {})
  })

  it('lists every tool with its schema (2020-12 keywords kept), title and annotations', async () => {
    const client = await connect()
    const { tools } = await client.listTools()
    expect(tools).toStrictEqual(EXPECTED_TOOLS)
  })

  it('calls tools: text, an image, an error result, invalid arguments, an unknown tool', async () => {
    const client = await connect()
    expect(await client.callTool({ name: 'get_weather', arguments: { city: 'Chennai' } })).toStrictEqual({
      content: [{ type: 'text', text: 'Sunny in Chennai.' }],
    })
    expect(await client.callTool({ name: 'draw', arguments: {} })).toStrictEqual({
      content: [
        { type: 'text', text: 'A red pixel.' },
        { type: 'image', data: RED_PIXEL, mimeType: 'image/png' },
      ],
    })
    expect(await client.callTool({ name: 'explode', arguments: {} })).toStrictEqual({
      content: [{ type: 'text', text: 'Tool "explode" failed: kaboom' }],
      isError: true,
    })
    const invalid = await client.callTool({
      name: 'book_trip',
      arguments: { from: 'Pune', to: 'X', seats: 12 },
    })
    expect(invalid.isError).toBe(true)
    expect(JSON.stringify(invalid.content)).toContain('book_trip')
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(McpError)
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
      /Unknown tool "no_such_tool"/,
    )
  })

  it('answers initialize with the server name and tools capability', async () => {
    const client = await connect()
    expect(client.getServerCapabilities()?.tools).toStrictEqual({})
    expect(client.getServerVersion()?.name).toMatch(/^(toolnexus|served-over-stdio)$/)
  })
})

describe("toolnexus's own MCP client consuming a served toolkit", () => {
  it.each([
    [
      'streamable HTTP',
      async () => ({ type: 'streamable-http' as const, url: `${(await served()).server.url}/mcp` }),
    ],
    [
      'stdio',
      async () => ({ type: 'stdio' as const, command: process.execPath, args: ['--import', 'tsx', CHILD] }),
    ],
  ])('over %s: names, schemas, annotations and errors round-trip', async (_transport, config) => {
    const consumer = await createToolkit({
      logger: { warn: () => {} },
      mcpConfig: { mcpServers: { served: await config() } },
    })
    closers.push(() => consumer.close())

    expect(consumer.mcpStatus()).toStrictEqual({ served: 'connected' })
    expect(consumer.tools().map((tool) => tool.name)).toStrictEqual([
      'served_get_weather',
      'served_explode',
      'served_draw',
      'served_book_trip',
    ])
    expect(consumer.get('served_book_trip')?.inputSchema).toStrictEqual(TRIP_SCHEMA)
    expect(consumer.get('served_get_weather')?.inputSchema).toStrictEqual(EXPECTED_TOOLS[0]?.inputSchema)
    expect(consumer.get('served_get_weather')?.annotations).toStrictEqual({
      title: 'Weather',
      readOnlyHint: true,
      openWorldHint: true,
    })
    const weather = await consumer.execute('served_get_weather', { city: 'Pune' })
    expect([weather.output, weather.isError]).toStrictEqual(['Sunny in Pune.', false])
    const failed = await consumer.execute('served_explode', {})
    expect([failed.output, failed.isError]).toStrictEqual(['Tool "explode" failed: kaboom', true])
    const drawn = await consumer.execute('served_draw', {})
    expect(drawn.media).toStrictEqual([{ type: 'image', mediaType: 'image/png', data: RED_PIXEL }])
  })
})

describe('createMcpHandler', () => {
  const initialize = (headers: Record<string, string> = {}) =>
    new Request('http://localhost:3000/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    })

  it('with allowedHosts, refuses another Host or Origin (DNS rebinding) and serves the allowed ones', async () => {
    const toolkit = await servedToolkit()
    closers.push(() => toolkit.close())
    const handler = createMcpHandler(toolkit, { allowedHosts: ['localhost', '127.0.0.1', '[::1]'] })

    expect((await handler(initialize({ host: 'evil.example.com' }))).status).toBe(403)
    expect(
      (await handler(initialize({ host: 'localhost:3000', origin: 'http://evil.example.com' }))).status,
    ).toBe(403)
    expect((await handler(initialize({ host: 'localhost:3000' }))).status).toBe(200)
    expect((await handler(initialize({ host: '[::1]:3000', origin: 'http://[::1]:3000' }))).status).toBe(200)
  })

  it('answers an unknown session with 404 and a request without one that is not initialize with 400', async () => {
    const toolkit = await servedToolkit()
    closers.push(() => toolkit.close())
    const handler = createMcpHandler(toolkit)
    const list = (headers: Record<string, string>) =>
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      })

    expect((await handler(list({ 'mcp-session-id': 'made-up' }))).status).toBe(404)
    expect((await handler(list({}))).status).toBe(400)
  })

  const ping = (handler: (request: Request) => Promise<Response>, id: string | null) =>
    handler(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': String(id),
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }),
      }),
    )

  it('past maxSessions refuses a new session with 503 and keeps the live one', async () => {
    const toolkit = await servedToolkit()
    closers.push(() => toolkit.close())
    const handler = createMcpHandler(toolkit, { maxSessions: 1 })
    const first = await handler(initialize())
    const second = await handler(initialize())
    expect([first.status, second.status, second.headers.get('retry-after')]).toStrictEqual([200, 503, '60'])
    expect(await second.json()).toStrictEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Too many sessions (maxSessions 1): try again later.' },
      id: null,
    })
    expect((await ping(handler, first.headers.get('mcp-session-id'))).status).toBe(200)
  })

  it('1,000 anonymous initialize requests do not evict a live session', async () => {
    const toolkit = await servedToolkit()
    closers.push(() => toolkit.close())
    const handler = createMcpHandler(toolkit)
    const live = (await handler(initialize())).headers.get('mcp-session-id')
    const statuses = new Map<number, number>()
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(Array.from({ length: 100 }, () => handler(initialize())))
      for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1)
    }
    expect(Object.fromEntries(statuses)).toStrictEqual({ 200: 999, 503: 1 })
    expect((await ping(handler, live)).status).toBe(200)
  }, 60_000)

  it.each([
    ['a rebinding Host', { host: 'evil.example.com' }, 403],
    ['a rebinding Host on a local port', { host: 'attacker.test:3000' }, 403],
    [
      'a local Host with a foreign Origin',
      { host: 'localhost:3000', origin: 'http://evil.example.com' },
      403,
    ],
    ['a local Host with Origin "null"', { host: 'localhost:3000', origin: 'null' }, 403],
    ['localhost on any port', { host: 'localhost:4123', origin: 'http://localhost:4123' }, 200],
    ['127.0.0.1', { host: '127.0.0.1:3000' }, 200],
    ['[::1]', { host: '[::1]:3000', origin: 'http://[::1]:3000' }, 200],
  ])('by default answers only local hosts: %s gets %s', async (_case, headers, status) => {
    const toolkit = await servedToolkit()
    closers.push(() => toolkit.close())
    const handler = createMcpHandler(toolkit)
    expect((await handler(initialize(headers))).status).toBe(status)
  })

  it('allowedOrigins admits a page on another host; "*" hosts still want a same-host Origin', async () => {
    const toolkit = await servedToolkit()
    closers.push(() => toolkit.close())
    const listed = createMcpHandler(toolkit, { allowedOrigins: ['https://app.example.com'] })
    const anyHost = createMcpHandler(toolkit, { allowedHosts: ['*'] })
    const statuses = [
      await listed(initialize({ host: 'localhost:3000', origin: 'https://app.example.com' })),
      await listed(initialize({ host: 'localhost:3000', origin: 'https://other.example.com' })),
      await anyHost(initialize({ host: 'mcp.example.com' })),
      await anyHost(initialize({ host: 'mcp.example.com', origin: 'https://mcp.example.com' })),
      await anyHost(initialize({ host: 'mcp.example.com', origin: 'https://evil.example.com' })),
    ].map((response) => response.status)
    expect(statuses).toStrictEqual([200, 403, 200, 200, 403])
  })

  it('authorize runs before every request: a refused or throwing check answers 401', async () => {
    const toolkit = await servedToolkit()
    closers.push(() => toolkit.close())
    const seen: string[] = []
    const handler = createMcpHandler(toolkit, {
      authorize: async (request) => {
        const token = request.headers.get('authorization')
        seen.push(String(token))
        if (token === 'Bearer boom') throw new Error('store down')
        return token === 'Bearer good'
      },
    })
    const good = await handler(initialize({ authorization: 'Bearer good' }))
    const session = good.headers.get('mcp-session-id')
    expect(good.status).toBe(200)
    expect((await handler(initialize({ authorization: 'Bearer bad' }))).status).toBe(401)
    expect((await handler(initialize({ authorization: 'Bearer boom' }))).status).toBe(401)
    // A live session's id is not a credential: each request is checked on its own.
    expect((await ping(handler, session)).status).toBe(401)
    expect(seen).toStrictEqual(['Bearer good', 'Bearer bad', 'Bearer boom', 'null'])
  })

  it('a stateless handler answers GET with 405', async () => {
    const toolkit = await servedToolkit()
    closers.push(() => toolkit.close())
    const handler = createMcpHandler(toolkit, { sessions: 'stateless' })
    expect((await handler(new Request('http://localhost/mcp'))).status).toBe(405)
  })

  it('refuses what is not a toolkit and options of the wrong shape', async () => {
    const toolkit = await servedToolkit()
    closers.push(() => toolkit.close())
    expect(() => createMcpHandler({} as never)).toThrow(ConfigError)
    expect(() => createMcpHandler(toolkit, { sessions: 'sometimes' as never })).toThrow(ConfigError)
    expect(() => createMcpHandler(toolkit, { maxSessions: 0 })).toThrow(ConfigError)
    expect(() => createMcpHandler(toolkit, { allowedHosts: [''] })).toThrow(ConfigError)
    expect(() => createMcpHandler(toolkit, { allowedOrigins: ['not a url'] })).toThrow(ConfigError)
    expect(() => createMcpHandler(toolkit, { authorize: true as never })).toThrow(ConfigError)
  })
})

describe('approvals over MCP', () => {
  async function approvalServer(
    options: McpHandlerOptions = { authorize: () => true },
    wrap: (toolkit: Toolkit) => Toolkit = (toolkit) => toolkit,
  ): Promise<{ url: string; ran: string[]; warnings: string[] }> {
    const ran: string[] = []
    const warnings: string[] = []
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
        defineTool({
          name: 'read_file',
          description: 'Reads a file.',
          inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
          execute: ({ path }) => {
            ran.push(`read ${String(path)}`)
            return `Contents of ${String(path)}.`
          },
        }),
      ],
    })
    closers.push(() => toolkit.close())
    const logger = { warn: (message: string) => warnings.push(message) }
    const server = await serveFetch(createMcpHandler(wrap(toolkit), { logger, ...options }))
    closers.push(() => server.close())
    return { url: server.url, ran, warnings }
  }

  async function clientAnswering(
    url: string,
    answers: ElicitResult[] | undefined,
  ): Promise<{ client: Client; questions: string[] }> {
    const questions: string[] = []
    const client = new Client(
      { name: 'approving-client', version: '1.0.0' },
      answers === undefined ? {} : { capabilities: { elicitation: {} } },
    )
    if (answers !== undefined) {
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        questions.push(request.params.message)
        return answers.shift() ?? { action: 'cancel' }
      })
    }
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)))
    closers.push(() => client.close())
    return { client, questions }
  }

  it('asks the user through elicitation: an approval runs the call, a decline or a "no" does not', async () => {
    const { url, ran } = await approvalServer()
    const { client, questions } = await clientAnswering(url, [
      { action: 'accept', content: { approve: true } },
      { action: 'decline' },
      { action: 'accept', content: { approve: false } },
    ])

    expect(await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/a' } })).toStrictEqual({
      content: [{ type: 'text', text: 'Deleted /tmp/a.' }],
    })
    expect(await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/b' } })).toStrictEqual({
      content: [
        { type: 'text', text: 'The call of tool "delete_file" was declined by the user. It was not run.' },
      ],
      isError: true,
    })
    const refused = await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/c' } })
    expect(refused.isError).toBe(true)
    expect(ran).toStrictEqual(['/tmp/a'])
    expect(questions[0]).toBe('Allow the tool "delete_file" to run with these arguments?\n{"path":"/tmp/a"}')
    expect(questions).toHaveLength(3)
  })

  it('refuses the call when the client cannot ask (no elicitation capability)', async () => {
    const { url, ran } = await approvalServer()
    const { client } = await clientAnswering(url, undefined)

    const result = await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/a' } })

    expect(result.isError).toBe(true)
    expect(JSON.stringify(result.content)).toContain('does not support elicitation')
    expect(ran).toStrictEqual([])
  })

  it('refuses the call on a stateless server, which has no way to receive an answer', async () => {
    const { url, ran } = await approvalServer({ sessions: 'stateless', authorize: () => true })
    const { client, questions } = await clientAnswering(url, [
      { action: 'accept', content: { approve: true } },
    ])

    const result = await client.callTool({ name: 'delete_file', arguments: { path: '/tmp/a' } })

    expect(result.isError).toBe(true)
    expect(JSON.stringify(result.content)).toContain('stateless')
    expect([ran, questions]).toStrictEqual([[], []])
  })

  it('without authorize, a tool that needs approval is left out of tools/list (one warning) and not run', async () => {
    const { url, ran, warnings } = await approvalServer({})
    const { client, questions } = await clientAnswering(url, [
      { action: 'accept', content: { approve: true } },
    ])

    expect((await client.listTools()).tools.map((tool) => tool.name)).toStrictEqual(['read_file'])
    await expect(client.callTool({ name: 'delete_file', arguments: { path: '/tmp/a' } })).rejects.toThrow(
      'Unknown tool "delete_file"',
    )
    expect([ran, questions]).toStrictEqual([[], []])
    expect(warnings).toStrictEqual([
      'createMcpHandler leaves out "delete_file": it needs approval, which is served only to authorized ' +
        'callers. Set `authorize` to serve them.',
    ])
  })

  it('without authorize, a tool a Toolkit made elsewhere says may need approval is left out and not run', async () => {
    const { url, ran } = await approvalServer({}, (inner) =>
      wrappedToolkit(inner, { mayNeedApproval: (name) => name === 'read_file' }),
    )
    const { client } = await clientAnswering(url, [])

    expect((await client.listTools()).tools.map((tool) => tool.name)).toStrictEqual(['delete_file'])
    await expect(client.callTool({ name: 'read_file', arguments: { path: '/tmp/a' } })).rejects.toThrow(
      'Unknown tool "read_file"',
    )
    expect(ran).toStrictEqual([])
  })

  // A Toolkit made elsewhere, whose own approval rule covers `read_file` (a tool that has none itself).
  const asksForReads = (verdict: () => unknown) => (inner: Toolkit) =>
    wrappedToolkit(inner, {
      checkCall: (name, args, toolCallId): CheckedCall | undefined =>
        name === 'read_file'
          ? { needsApproval: verdict() as boolean, execute: (context) => inner.execute(name, args, context) }
          : inner.checkCall?.(name, args, toolCallId),
    })
  const fails = (): never => {
    throw new Error('cannot tell')
  }

  it.each([
    ['its checkCall', asksForReads(() => true)],
    [
      'its needsApproval (no checkCall)',
      (inner: Toolkit) =>
        wrappedToolkit(inner, { checkCall: undefined, needsApproval: (name) => name === 'read_file' }),
    ],
  ])(
    'without authorize, a call a Toolkit made elsewhere holds by %s is refused, never asked or run',
    async (_, wrap) => {
      const { url, ran } = await approvalServer({}, wrap)
      const { client, questions } = await clientAnswering(url, [
        { action: 'accept', content: { approve: true } },
      ])

      const result = await client.callTool({ name: 'read_file', arguments: { path: '/tmp/a' } })

      expect(result.isError).toBe(true)
      expect(JSON.stringify(result.content)).toContain('`authorize`')
      expect([ran, questions]).toStrictEqual([[], []])
    },
  )

  it.each([
    ['checkCall throws', (inner: Toolkit) => wrappedToolkit(inner, { checkCall: fails })],
    ['its verdict rejects', asksForReads(() => Promise.reject(new Error('down')))],
    ['its verdict is a truthy non-boolean', asksForReads(() => 'yes')],
    [
      'needsApproval throws',
      (inner: Toolkit) => wrappedToolkit(inner, { checkCall: undefined, needsApproval: fails }),
    ],
    [
      'needsApproval rejects',
      (inner: Toolkit) =>
        wrappedToolkit(inner, {
          checkCall: undefined,
          needsApproval: () => Promise.reject(new Error('down')),
        }),
    ],
  ])(
    'an approval check that cannot decide (%s) asks the user, and a decline runs nothing',
    async (_, wrap) => {
      const { url, ran } = await approvalServer(undefined, wrap)
      const { client, questions } = await clientAnswering(url, [{ action: 'decline' }])

      expect(await client.callTool({ name: 'read_file', arguments: { path: '/tmp/a' } })).toStrictEqual({
        content: [
          { type: 'text', text: 'The call of tool "read_file" was declined by the user. It was not run.' },
        ],
        isError: true,
      })
      expect([ran, questions]).toStrictEqual([
        [],
        ['Allow the tool "read_file" to run with these arguments?\n{"path":"/tmp/a"}'],
      ])
    },
  )
})
