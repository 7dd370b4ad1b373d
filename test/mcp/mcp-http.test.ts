import { randomUUID } from 'node:crypto'
import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createToolkit, type Toolkit } from '../../src/index.js'
import type { ToolResult } from '../../src/tool/types.js'
import { type HttpFixture, startHttpFixture } from '../fixtures/mcp/http-server.mjs'
import { recordingLogger, waitFor } from './mcp-fixtures.js'

const SECRET = `http-secret-${randomUUID()}`
const LITERAL_SECRET = `literal-${randomUUID()}`

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

describe('MCP remote servers through createToolkit', () => {
  let fixture: HttpFixture
  let toolkit: Toolkit
  const { logger, lines } = recordingLogger()
  const results: ToolResult[] = []

  async function run(name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
    const result = await toolkit.execute(name, args)
    results.push(result)
    return result
  }

  beforeAll(async () => {
    vi.stubEnv('TOOLNEXUS_HTTP_TOKEN', SECRET)
    fixture = await startHttpFixture()
    const { url } = fixture
    toolkit = await createToolkit({
      logger,
      mcpConfig: {
        mcpServers: {
          streamable: {
            type: 'remote',
            url: `${url}/mcp`,
            headers: { Authorization: 'Bearer ${TOOLNEXUS_HTTP_TOKEN}', 'X-Literal': LITERAL_SECRET },
          },
          inferred: { url: `${url}/mcp` },
          legacy: { url: `${url}/sse` },
          sseOnly: { type: 'sse', url: `${url}/sse`, headers: { 'X-Token': '${TOOLNEXUS_HTTP_TOKEN}' } },
          missing: { url: `${url}/mcp?who=missing`, headers: { 'X-Key': '${TOOLNEXUS_MISSING_KEY}' } },
          rejected: { url: `${url}/echo-401`, headers: { Authorization: 'Bearer ${TOOLNEXUS_HTTP_TOKEN}' } },
          refused: { url: `http://127.0.0.1:${await closedPort()}/mcp`, timeout: 5000 },
        },
      },
    })
  }, 30_000)

  afterAll(async () => {
    await toolkit?.close()
    await fixture?.close()
    vi.unstubAllEnvs()
  })

  it('connects over streamable HTTP, falls back to SSE, and isolates the failures', () => {
    const servers = toolkit.mcpServers()
    expect(toolkit.mcpStatus()).toStrictEqual({
      streamable: 'connected',
      inferred: 'connected',
      legacy: 'connected',
      sseOnly: 'connected',
      missing: 'failed',
      rejected: 'failed',
      refused: 'failed',
    })
    expect(
      [servers.streamable, servers.inferred, servers.legacy, servers.sseOnly].map((info) => info?.transport),
    ).toStrictEqual(['streamable-http', 'streamable-http', 'sse', 'sse'])
    expect(servers.streamable?.tools).toStrictEqual(['streamable_echo', 'streamable_add'])
  })

  it('calls tools over both transports', async () => {
    expect(await run('streamable_echo', { text: 'over http' })).toMatchObject({
      output: 'over http',
      isError: false,
    })
    expect(await run('legacy_echo', { text: 'over sse' })).toMatchObject({
      output: 'over sse',
      isError: false,
    })
    expect(await run('sseOnly_add', { a: 1, b: 2 })).toMatchObject({ output: '{"sum":3}', isError: false })
  })

  it('sends the headers with ${VAR} expanded', () => {
    const sent = fixture.requests.filter(
      (request) => request.path === '/mcp' && request.headers['x-literal'] !== undefined,
    )
    expect(sent.length).toBeGreaterThan(0)
    for (const request of sent) {
      expect(request.headers.authorization).toBe(`Bearer ${SECRET}`)
      expect(request.headers['x-literal']).toBe(LITERAL_SECRET)
    }
    expect(
      fixture.requests.some((request) => request.path === '/sse' && request.headers['x-token'] === SECRET),
    ).toBe(true)
  })

  it('fails a server whose variable is missing, naming the variable, without sending anything', () => {
    expect(toolkit.mcpServers().missing?.reason).toBe(
      'environment variable "TOOLNEXUS_MISSING_KEY" is not set (used in "headers.X-Key"); set it, or give a default ' +
        'with ${TOOLNEXUS_MISSING_KEY:-default} (mcpServers.missing in mcpConfig)',
    )
    expect(fixture.requests.some((request) => request.headers['x-key'] !== undefined)).toBe(false)
  })

  it('masks a secret the server echoes back in an error', () => {
    const reason = toolkit.mcpServers().rejected?.reason ?? ''
    expect(reason).toContain('401')
    expect(reason).toContain('unauthorized: you sent ***')
    expect(reason).not.toContain(SECRET)
  })

  it('reports a server that refuses connections', () => {
    expect(toolkit.mcpServers().refused?.reason).toBe('fetch failed (ECONNREFUSED)')
  })

  it('reconnects and resends once when the server has forgotten the session', async () => {
    const before = fixture.requests.filter(
      (request) => request.method === 'POST' && request.path === '/mcp',
    ).length
    fixture.forgetSessions()
    expect(await run('streamable_echo', { text: 'after restart' })).toMatchObject({
      output: 'after restart',
      isError: false,
    })
    expect(toolkit.mcpStatus().streamable).toBe('connected')
    const posts = fixture.requests.filter(
      (request) => request.method === 'POST' && request.path === '/mcp',
    ).length
    // The refused call, then initialize, initialized, tools/list, and the call again.
    expect(posts - before).toBeGreaterThanOrEqual(5)
  })

  it('never shows a secret in a log line, a status or an error result', () => {
    const errors = results.filter((result) => result.isError).map((result) => result.output)
    const shown = [...lines, JSON.stringify(toolkit.mcpServers()), ...errors].join('\n')
    expect(shown).not.toContain(SECRET)
    expect(shown).not.toContain(LITERAL_SECRET)
    expect(lines.some((line) => line.startsWith('MCP server "rejected" failed'))).toBe(true)
  })
})

describe('a remote server that goes away', () => {
  it('answers calls with error results, reconnects when it is back, and close() ends the session', async () => {
    const fixture = await startHttpFixture()
    const toolkit = await createToolkit({
      logger: recordingLogger().logger,
      mcpConfig: { mcpServers: { remote: { url: `${fixture.url}/mcp`, timeout: 3000 } } },
    })
    try {
      expect((await toolkit.execute('remote_echo', { text: 'up' })).output).toBe('up')
      expect(fixture.sessions().streamable).toBe(1)
      await toolkit.close()
      // close() told the server to drop the session (DELETE).
      await waitFor(() => fixture.sessions().streamable === 0)
      expect(fixture.requests.some((request) => request.method === 'DELETE')).toBe(true)
    } finally {
      await toolkit.close()
      await fixture.close()
    }

    const gone = await startHttpFixture()
    const again = await createToolkit({
      logger: recordingLogger().logger,
      mcpConfig: { mcpServers: { remote: { url: `${gone.url}/mcp`, timeout: 3000 } } },
    })
    try {
      await gone.close()
      const first = await again.execute('remote_echo', { text: 'anyone?' })
      expect(first.isError).toBe(true)
      expect(first.output).toMatch(/^MCP tool "echo" on server "remote" failed/)
      const second = await again.execute('remote_echo', { text: 'still?' })
      expect(second.isError).toBe(true)
      expect(second.output).toMatch(/^MCP server "remote" is unavailable, so tool "echo" was not run: /)
      expect(again.mcpStatus().remote).toBe('failed')
    } finally {
      await again.close()
    }
  }, 30_000)
})
