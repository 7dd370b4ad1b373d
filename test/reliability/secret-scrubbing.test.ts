// One scrubber for every result: a configured secret (an MCP server's env/headers, an HTTP tool's ${VAR}
// headers) is masked in successful results too, in metadata (an MCP result's content), and in its usual
// encodings (URL, base64 at any alignment, HTTP Basic). HTTP tools handle redirects themselves, so their
// configured headers and body never reach another origin.
import { randomBytes } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { httpTool } from '../../src/http/http-tool.js'
import { createSecretScrubber, scrubToolResult, secretPartsOf } from '../../src/shared/scrub-secrets.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { type RecordingServer, startRecordingServer } from '../http/recording-server.js'
import { STDIO_SERVER } from '../mcp/mcp-fixtures.js'

const quiet = { warn() {} }
const token = `tok-${randomBytes(12).toString('hex')}`
const base64 = (text: string): string => Buffer.from(text).toString('base64')

describe('the scrubber knows the usual encodings', () => {
  it.each([
    ['as it is', token],
    ['URL-encoded', encodeURIComponent(`${token}/&=`)],
    ['base64', base64(token)],
    ['base64url', Buffer.from(token).toString('base64url')],
    ['base64 inside a longer base64 text (offset 1)', base64(`x${token}y`).slice(4, -4)],
    ['base64 inside a longer base64 text (offset 2)', base64(`xy${token}z`).slice(4, -4)],
  ])('masks the secret %s', (_label, form) => {
    const scrub = createSecretScrubber([token, `${token}/&=`])
    const scrubbed = scrub(`before ${form} after`)
    expect(scrubbed).toMatch(/^before .*\*\*\*.* after$/)
    expect(scrubbed).not.toContain(form)
  })

  it('masks an HTTP Basic credential built from two configured values, and the parts of a configured one', () => {
    const user = `user-${randomBytes(4).toString('hex')}`
    const scrub = createSecretScrubber([user, token])
    expect(scrub(`Authorization: Basic ${base64(`${user}:${token}`)}`)).toBe('Authorization: Basic ***')
    const header = `Basic ${base64(`${user}:${token}`)}`
    const parts = createSecretScrubber(secretPartsOf(header))
    expect(parts(`you sent ${user}:${token}`)).toBe('you sent ***')
    expect(parts(`password ${token} is wrong`)).toBe('password *** is wrong')
  })

  it('masks strings at any depth of metadata, keys too, and keeps a result with nothing to mask as it is', () => {
    const scrub = createSecretScrubber([token])
    const result = {
      output: `ok ${token}`,
      isError: false,
      metadata: { content: [{ type: 'text', text: `echo ${token}` }], [token]: 1, status: 200 },
    }
    expect(scrubToolResult(scrub, result)).toStrictEqual({
      output: 'ok ***',
      isError: false,
      metadata: { content: [{ type: 'text', text: 'echo ***' }], '***': 1, status: 200 },
    })
    const clean = { output: 'fine', isError: false, metadata: { status: 200 } }
    expect(scrubToolResult(scrub, clean)).toBe(clean)
  })
})

describe('MCP results are scrubbed, successful ones and their metadata too', () => {
  it('a server echoing its own secret in a successful result and in metadata.content shows neither', async () => {
    await using tk = await createToolkit({
      logger: quiet,
      mcpConfig: {
        mcpServers: {
          fixture: { command: process.execPath, args: [STDIO_SERVER], env: { FIXTURE_SECRET: token } },
        },
      },
    })
    const plain = await tk.execute('fixture_env', { name: 'FIXTURE_SECRET' })
    expect(plain.isError).toBe(false)
    expect(plain.output).toBe('***')
    expect(JSON.stringify(plain)).not.toContain(token)
    const encoded = await tk.execute('fixture_echo', { text: `basic ${base64(token)}` })
    expect(encoded.output).toBe('basic ***')
    expect(JSON.stringify(encoded.metadata)).not.toContain(base64(token))
  })
})

describe('HTTP tools: secrets in successful answers, and redirects', () => {
  let home: RecordingServer
  let elsewhere: RecordingServer
  beforeEach(async () => {
    process.env.REDIRECT_TEST_TOKEN = token
    process.env.REDIRECT_TEST_BASIC = base64(`svc:${token}`)
    home = await startRecordingServer()
    elsewhere = await startRecordingServer()
  })
  afterEach(async () => {
    delete process.env.REDIRECT_TEST_TOKEN
    delete process.env.REDIRECT_TEST_BASIC
    await Promise.all([home.close(), elsewhere.close()])
  })

  const tool = (method: 'GET' | 'POST', path = '/start') =>
    httpTool({
      name: 'call',
      description: '',
      method,
      url: `${home.origin}${path}`,
      headers: {
        'X-Api-Key': '${REDIRECT_TEST_TOKEN}',
        Authorization: 'Basic ${REDIRECT_TEST_BASIC}',
      },
      inputSchema: { type: 'object', properties: { note: { type: 'string' } } },
    })

  const redirectTo =
    (target: () => string, status: number) =>
    (request: { url: string }, response: import('node:http').ServerResponse) => {
      if (request.url.startsWith('/start')) {
        response.writeHead(status, { location: target() })
        response.end()
        return
      }
      response.writeHead(200, { 'content-type': 'text/plain' })
      response.end('arrived')
    }

  it('a successful answer echoing the header value, the token or the decoded Basic credential is masked', async () => {
    home.respond = (request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' })
      response.end(
        `key=${request.headers['x-api-key']} auth=${request.headers.authorization} basic=svc:${token}`,
      )
    }
    const result = await tool('GET').execute({})
    expect(result).toStrictEqual({
      output: 'key=*** auth=*** basic=***',
      isError: false,
      metadata: { status: 200, contentType: 'text/plain' },
    })
  })

  it('a redirect within the origin is followed with the configured headers', async () => {
    home.respond = redirectTo(() => `${home.origin}/next`, 302)
    const result = await tool('GET').execute({})
    expect(result.output).toBe('arrived')
    expect(home.requests.map((request) => [request.url, request.headers['x-api-key']])).toStrictEqual([
      ['/start', token],
      ['/next', token],
    ])
  })

  it.each([302, 301, 303])(
    'a %i to another origin is followed without the configured headers or the body',
    async (status) => {
      home.respond = redirectTo(() => `${elsewhere.origin}/landing`, status)
      elsewhere.respond = redirectTo(() => '', 200)
      const result = await tool('POST').execute({ note: 'private body' })
      expect(result).toMatchObject({ output: 'arrived', isError: false })
      expect(elsewhere.requests).toHaveLength(1)
      const [sent] = elsewhere.requests
      expect(sent?.method).toBe('GET')
      expect(sent?.body).toBe('')
      expect(sent?.headers['x-api-key']).toBeUndefined()
      expect(sent?.headers.authorization).toBeUndefined()
      expect(JSON.stringify(sent)).not.toContain(token)
    },
  )

  it.each([307, 308])('a %i to another origin, which would resend the body, is refused', async (status) => {
    home.respond = redirectTo(() => `${elsewhere.origin}/steal`, status)
    const result = await tool('POST').execute({ note: 'private body' })
    expect(result.isError).toBe(true)
    expect(result.output).toBe(
      `HTTP tool "call": HTTP ${status} redirected to another origin (${elsewhere.origin}), which would need the request body; it is only sent to ${home.origin}.`,
    )
    expect(elsewhere.requests).toHaveLength(0)
  })

  it('a redirect loop stops at the named limit', async () => {
    home.respond = (_request, response) => {
      response.writeHead(302, { location: '/start?again' })
      response.end()
    }
    const result = await tool('GET').execute({})
    expect(result.output).toBe(
      `HTTP tool "call": more than 5 redirects (the limit), last to ${home.origin}/start.`,
    )
    expect(home.requests).toHaveLength(6)
  })
})
