// Servers built on the v2 SDK, serving both eras or 2026-07-28 only, over stdio and HTTP: each connection
// negotiates its own era, a tool that asks for input through an input-required answer is answered by
// onElicitation, a list inside its ttlMs is not asked again, and list changes reach the toolkit.
import { createMcpHandler } from '@modelcontextprotocol/server'
import { afterEach, describe, expect, it } from 'vitest'
import type { McpServerConfig } from '../../src/mcp/mcp-config.js'
import type { ElicitationRequest } from '../../src/mcp/mcp-source.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { buildServer } from '../fixtures/mcp/v2-server-factory.mjs'
import { type FetchServer, serveFetch } from '../mcp-server/serve-fetch.js'
import { FIXTURES, stdioServer, waitFor } from './mcp-fixtures.js'

const V2_STDIO = `${FIXTURES}/v2-stdio-server.mjs`
const toolkits: Toolkit[] = []
const servers: FetchServer[] = []
afterEach(async () => {
  for (const toolkit of toolkits.splice(0)) await toolkit.close()
  for (const server of servers.splice(0)) await server.close()
})

/** The v2 fixture over HTTP; counts the tools/list requests it is sent. */
async function httpServer(options: { modernOnly: boolean; port?: number; lists?: { count: number } }) {
  const { modernOnly, lists = { count: 0 } } = options
  const state = { added: [] as string[] }
  const handler = createMcpHandler(
    () => buildServer({ modernOnly, state, onAdded: () => handler.notify.toolsChanged() }),
    { legacy: modernOnly ? 'reject' : 'stateless' },
  )
  const server = await serveFetch(async (request) => {
    if (request.method === 'POST') {
      const body = (await request.clone().json()) as { method?: string }
      if (body.method === 'tools/list') lists.count++
    }
    return handler.fetch(request)
  }, options.port)
  servers.push(server)
  return { url: `${server.url}/mcp`, lists, port: Number(new URL(server.url).port) }
}

function stdioEntry(modernOnly: boolean): McpServerConfig {
  return { command: process.execPath, args: [V2_STDIO, ...(modernOnly ? ['--modern-only'] : [])] }
}

async function toolkitFor(entries: Record<string, McpServerConfig>, asked: ElicitationRequest[] = []) {
  const toolkit = await createToolkit({
    logger: { warn: () => undefined },
    mcpConfig: { mcpServers: entries },
    onElicitation: (request) => {
      asked.push(request)
      return { action: 'accept', content: { confirm: true } }
    },
  })
  toolkits.push(toolkit)
  return toolkit
}

const text = (result: { output: unknown }) => String(result.output)

describe('servers on the v2 SDK', () => {
  it.each([
    ['stdio', 'both eras', false],
    ['stdio', '2026-07-28 only', true],
    ['HTTP', 'both eras', false],
    ['HTTP', '2026-07-28 only', true],
  ] as const)(
    'over %s, serving %s: negotiates 2026-07-28, calls tools, answers input_required through onElicitation',
    async (transport, _mode, modernOnly) => {
      const entry =
        transport === 'stdio' ? stdioEntry(modernOnly) : { url: (await httpServer({ modernOnly })).url }
      const asked: ElicitationRequest[] = []
      const toolkit = await toolkitFor({ v2: entry }, asked)
      expect(toolkit.mcpStatus()).toStrictEqual({ v2: 'connected' })
      expect(text(await toolkit.execute('v2_era', {}))).toBe('2026-07-28')
      expect(text(await toolkit.execute('v2_echo', { text: 'hi' }))).toBe('echo: hi')
      expect(text(await toolkit.execute('v2_confirm', { action: 'deploy' }))).toBe('ran deploy')
      expect(asked.map(({ server, message, mode }) => ({ server, message, mode }))).toStrictEqual([
        { server: 'v2', message: 'Run deploy?', mode: 'form' },
      ])
    },
    60_000,
  )

  it.each([
    ['stdio', (): Promise<McpServerConfig> => Promise.resolve(stdioEntry(false))],
    ['HTTP', async (): Promise<McpServerConfig> => ({ url: (await httpServer({ modernOnly: false })).url })],
  ] as const)(
    'pinned to 2025-11-25 over %s: speaks the 2025 way, and the same handler answers elicitation/create',
    async (_transport, entryOf) => {
      const asked: ElicitationRequest[] = []
      const toolkit = await toolkitFor({ v2: { ...(await entryOf()), protocol: '2025-11-25' } }, asked)
      expect(text(await toolkit.execute('v2_era', {}))).toBe('legacy')
      if (_transport === 'stdio') {
        // Over stateless 2025 HTTP the server has no way to ask; over stdio it asks with elicitation/create.
        expect(text(await toolkit.execute('v2_confirm', { action: 'ship' }))).toBe('ran ship')
        expect(asked.map(({ message }) => message)).toStrictEqual(['Run ship?'])
      }
    },
    60_000,
  )

  it('a 2026-07-28-only server and a 2025-only server side by side in one mcp.json both work', async () => {
    const modern = await httpServer({ modernOnly: true })
    const toolkit = await toolkitFor({
      modern: { url: modern.url },
      modernStdio: stdioEntry(true),
      old: stdioServer(),
    })
    expect(toolkit.mcpStatus()).toStrictEqual({
      modern: 'connected',
      modernStdio: 'connected',
      old: 'connected',
    })
    expect(text(await toolkit.execute('modern_era', {}))).toBe('2026-07-28')
    expect(text(await toolkit.execute('modernStdio_era', {}))).toBe('2026-07-28')
    expect((await toolkit.execute('old_echo', { text: 'still here' })).isError).toBe(false)
  }, 60_000)

  it('pinning 2026-07-28 on a 2025-only server fails that server with the reason', async () => {
    const toolkit = await toolkitFor({ old: { ...stdioServer(), protocol: '2026-07-28' } })
    expect(toolkit.mcpStatus()).toStrictEqual({ old: 'failed' })
    expect(toolkit.mcpServers().old?.reason).toMatch(/pinned protocol version 2026-07-28/)
  }, 60_000)

  it('does not list tools again inside their ttlMs, across a reconnect', async () => {
    const first = await httpServer({ modernOnly: true })
    const toolkit = await toolkitFor({ v2: { url: first.url } })
    expect(first.lists.count).toBe(1)
    // The server goes away and comes back on the same port: the toolkit reconnects on the next call.
    await servers.pop()?.close()
    expect((await toolkit.execute('v2_echo', { text: 'gone' })).isError).toBe(true)
    await httpServer({ modernOnly: true, port: first.port, lists: first.lists })
    expect(text(await toolkit.execute('v2_echo', { text: 'back' }))).toBe('echo: back')
    expect(first.lists.count).toBe(1)
  }, 60_000)

  it.each([
    ['2026-07-28 over HTTP, through subscriptions/listen', 'http'],
    ['2025-11-25 over stdio, through notifications/tools/list_changed', 'stdio'],
  ] as const)(
    'a tool added on the server reaches the toolkit: %s',
    async (_case, transport) => {
      const entry =
        transport === 'http'
          ? { url: (await httpServer({ modernOnly: false })).url }
          : { ...stdioEntry(false), protocol: '2025-11-25' as const }
      const toolkit = await toolkitFor({ v2: entry })
      expect(toolkit.get('v2_late')).toBeUndefined()
      expect(text(await toolkit.execute('v2_add-tool', { name: 'late' }))).toBe('added late')
      await waitFor(() => toolkit.get('v2_late') !== undefined, 20_000)
      expect(text(await toolkit.execute('v2_late', {}))).toBe('late ran')
    },
    60_000,
  )
})
