// Which elicitation modes the toolkit declares to a server: form alone unless the host opts in to URL
// mode, and a request in a mode not declared, which a server sends anyway, never reaches the handler.
import { createMcpHandler } from '@modelcontextprotocol/server'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/errors.js'
import { answerElicitation } from '../../src/mcp/answer-elicitation.js'
import type { ElicitationHandler, ElicitationMode, ElicitationRequest } from '../../src/mcp/mcp-source.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { buildServer } from '../fixtures/mcp/v2-server-factory.mjs'
import { type FetchServer, serveFetch } from '../mcp-server/serve-fetch.js'
import { stdioServer } from './mcp-fixtures.js'

const toolkits: Toolkit[] = []
const servers: FetchServer[] = []
afterEach(async () => {
  for (const toolkit of toolkits.splice(0)) await toolkit.close()
  for (const server of servers.splice(0)) await server.close()
})

const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities'

/**
 * A server that asks in any mode whatever the client declared: the v2 SDK server checks the declared
 * capabilities before it asks, so each call but `client-elicitation` reaches it as if both modes were.
 */
async function careless(request: Request): Promise<Request> {
  if (request.method !== 'POST') return request
  const body = (await request.clone().json()) as {
    method?: string
    params?: { name?: string; _meta?: Record<string, { elicitation?: unknown }> }
  }
  const declared = body.params?._meta?.[CAPABILITIES]
  if (body.method !== 'tools/call' || body.params?.name === 'client-elicitation' || declared === undefined) {
    return request
  }
  declared.elicitation = { form: {}, url: {} }
  return new Request(request, { body: JSON.stringify(body) })
}

/** A toolkit on the v2 fixture over HTTP (2026-07-28), answering every request with accept. */
async function toolkitWith(elicitationModes?: readonly ElicitationMode[]) {
  const handler = createMcpHandler(() => buildServer({ modernOnly: true }), { legacy: 'reject' })
  const server = await serveFetch(async (request) => handler.fetch(await careless(request)))
  servers.push(server)
  const asked: ElicitationRequest[] = []
  const toolkit = await createToolkit({
    logger: { warn: () => undefined },
    mcpConfig: { mcpServers: { v2: { url: `${server.url}/mcp` } } },
    ...(elicitationModes !== undefined && { elicitationModes }),
    onElicitation: (request) => {
      asked.push(request)
      return { action: 'accept', content: { confirm: true } }
    },
  })
  toolkits.push(toolkit)
  return { toolkit, asked }
}

const text = (result: { output: unknown }) => String(result.output)

describe('answerElicitation', () => {
  it('declines a request in a mode the client did not declare without calling the handler', async () => {
    const asked: ElicitationRequest[] = []
    const handler: ElicitationHandler = (request) => {
      asked.push(request)
      return { action: 'accept', content: { name: 'Ada' } }
    }
    const signal = new AbortController().signal
    const url = { message: 'Pay here', mode: 'url', url: 'https://pay.example/checkout' }
    const form = {
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    }
    expect(
      await answerElicitation({ handler, modes: ['form'], server: 'v2', params: url, signal }),
    ).toStrictEqual({
      action: 'decline',
    })
    expect(
      await answerElicitation({ handler, modes: ['url'], server: 'v2', params: form, signal }),
    ).toStrictEqual({
      action: 'decline',
    })
    expect(asked).toStrictEqual([])
    expect(
      await answerElicitation({ handler, modes: ['form', 'url'], server: 'v2', params: url, signal }),
    ).toStrictEqual({ action: 'accept' })
    expect(asked.map(({ mode, url }) => ({ mode, url }))).toStrictEqual([
      { mode: 'url', url: 'https://pay.example/checkout' },
    ])
  })
})

describe('elicitationModes', () => {
  it('by default declares form mode only, and forms are still answered', async () => {
    const { toolkit, asked } = await toolkitWith()
    expect(JSON.parse(text(await toolkit.execute('v2_client-elicitation', {})))).toStrictEqual({ form: {} })
    expect(text(await toolkit.execute('v2_confirm', { action: 'deploy' }))).toBe('ran deploy')
    expect(asked.map(({ mode }) => mode)).toStrictEqual(['form'])
  }, 60_000)

  it('refuses a URL request the server sends without the opt-in, and never calls the handler', async () => {
    const { toolkit, asked } = await toolkitWith()
    const result = await toolkit.execute('v2_open-page', {})
    expect(result.isError).toBe(true)
    expect(text(result)).toContain('Client does not support URL-mode elicitation requests')
    expect(asked).toStrictEqual([])
  }, 60_000)

  it("with ['form', 'url'] declares both, and a URL request reaches the handler", async () => {
    const { toolkit, asked } = await toolkitWith(['form', 'url'])
    expect(JSON.parse(text(await toolkit.execute('v2_client-elicitation', {})))).toStrictEqual({
      form: {},
      url: {},
    })
    expect(text(await toolkit.execute('v2_open-page', {}))).toBe('page: accept')
    expect(asked.map(({ server, message, mode, url }) => ({ server, message, mode, url }))).toStrictEqual([
      { server: 'v2', message: 'Pay here', mode: 'url', url: 'https://pay.example/checkout' },
    ])
  }, 60_000)

  it("with ['url'] alone a form request is refused without the handler", async () => {
    const { toolkit, asked } = await toolkitWith(['url'])
    expect(JSON.parse(text(await toolkit.execute('v2_client-elicitation', {})))).toStrictEqual({ url: {} })
    expect(text(await toolkit.execute('v2_confirm', { action: 'deploy' }))).toContain(
      'Client does not support form-mode elicitation requests',
    )
    expect(asked).toStrictEqual([])
  }, 60_000)

  it('over a 2025 session too: form only by default, and a URL elicitation/create never reaches the handler', async () => {
    const asked: ElicitationRequest[] = []
    const toolkit = await createToolkit({
      logger: { warn: () => undefined },
      mcpConfig: { mcpServers: { old: stdioServer('--open-page') } },
      onElicitation: (request) => {
        asked.push(request)
        return { action: 'accept' }
      },
    })
    toolkits.push(toolkit)
    expect(JSON.parse(text(await toolkit.execute('old_client_elicitation', {})))).toStrictEqual({ form: {} })
    const result = await toolkit.execute('old_open_page', {})
    expect(result.isError).toBe(true)
    expect(text(result)).toContain('Client does not support URL-mode elicitation requests')
    expect(asked).toStrictEqual([])
  }, 60_000)

  it.each([
    ['an empty list', []],
    ['an unknown mode', ['form', 'popup']],
    ['a string', 'url'],
    ['a mode twice', ['form', 'form']],
  ])('refuses %s, naming the field', async (_case, value) => {
    const made = createToolkit({ elicitationModes: value as never })
    await expect(made).rejects.toBeInstanceOf(ConfigError)
    await expect(made).rejects.toMatchObject({
      field: 'elicitationModes',
      message: expect.stringContaining("'form' and/or 'url'"),
    })
  })
})
