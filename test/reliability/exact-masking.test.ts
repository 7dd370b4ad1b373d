// Masking is exact: header values, OAuth client secrets, env values whose names mark a secret (or that the
// toolkit's `secrets` lists) and `${VAR}` values in headers or URLs are masked; every other env value
// reaches the model as it is, and valid JSON stays valid JSON.
import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/errors.js'
import { parseMcpConfig } from '../../src/mcp/parse-mcp-config.js'
import { createSecretScrubber } from '../../src/shared/scrub-secrets.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { STDIO_SERVER } from '../mcp/mcp-fixtures.js'

const secret = (label: string): string => `${label}-${randomBytes(12).toString('hex')}`
const closers: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {})
})

function secretsOf(entry: Record<string, unknown>, env: Record<string, string>, names: string[] = []) {
  const { servers } = parseMcpConfig(
    { mcpServers: { one: entry } },
    { origin: 'mcpConfig', baseDir: '/app', env, secretNames: names },
  )
  const plan = servers[0]
  if (plan === undefined || !('secrets' in plan)) throw new Error(`no plan: ${JSON.stringify(plan)}`)
  return [...new Set(plan.secrets)].sort()
}

describe('which configured values are secrets', () => {
  it('env: only values whose names mark a secret, or that `secrets` lists', () => {
    const env = {
      API_TOKEN: 'tok-1111aaaa',
      PGPASSWORD: 'pw-2222bbbb',
      githubApiKey: 'key-3333cccc',
      SESSION_COOKIE: 'ck-4444dddd',
      DATABASE_URL: 'postgres://db.internal/app',
      READ_ONLY: 'true',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      GIT_BASE_DIR: '/srv/repos',
    }
    expect(secretsOf({ command: 'node', env }, {}, ['DATABASE_URL'])).toStrictEqual(
      ['ck-4444dddd', 'key-3333cccc', 'postgres://db.internal/app', 'pw-2222bbbb', 'tok-1111aaaa'].sort(),
    )
  })

  it('${VAR}: always in headers and URLs, elsewhere when the variable is a secret', () => {
    const env = { SHARED_DIR: '/srv/shared', MY_API_KEY: 'key-5555eeee', TENANT: 'tenant-acme-01' }
    expect(
      secretsOf(
        {
          command: 'node',
          args: ['--root=${SHARED_DIR}', '--key=${MY_API_KEY}'],
          env: { ROOT: '${SHARED_DIR}' },
        },
        env,
      ),
    ).toStrictEqual(['key-5555eeee'])
    expect(
      secretsOf(
        {
          url: 'https://user:pa55-word@mcp.example.com/${TENANT}?api_key=q-6666ffff&page=2',
          headers: { Authorization: 'Bearer lit-7777gggg', Accept: 'application/json' },
        },
        env,
      ),
    ).toStrictEqual(
      ['Bearer lit-7777gggg', 'lit-7777gggg', 'pa55-word', 'q-6666ffff', 'tenant-acme-01'].sort(),
    )
  })
})

describe('masking never breaks JSON', () => {
  const scrub = createSecretScrubber(['true', 'info', 's3cr3t-token', '314159265358', 'with"quote'])

  it.each([
    ['a flag value is never a secret', '{"isClean":true}', '{"isClean":true}'],
    ['a secret inside a string', '{"note": "used s3cr3t-token here"}', '{"note": "used *** here"}'],
    ['a secret as a number becomes a string', '{"pin":314159265358}', '{"pin":"***"}'],
    ['a secret with a quote, escaped in JSON', '["with\\"quote"]', '["***"]'],
    ['plain text is masked as text', 'token s3cr3t-token', 'token ***'],
    ['a JSON string', '"s3cr3t-token"', '"***"'],
  ])('%s', (_case, text, expected) => {
    expect(scrub(text)).toBe(expected)
    if (expected.startsWith('{') || expected.startsWith('[')) expect(() => JSON.parse(expected)).not.toThrow()
  })
})

describe('an MCP server that echoes its environment', () => {
  const token = secret('tok')

  async function echoServer(): Promise<Toolkit> {
    const toolkit = await createToolkit({
      logger: { warn: () => {} },
      secrets: ['UPSTREAM_DSN'],
      mcpConfig: {
        mcpServers: {
          fx: {
            command: process.execPath,
            args: [STDIO_SERVER],
            env: {
              API_TOKEN: token,
              UPSTREAM_DSN: 'postgres://reader@db.internal/app',
              READ_ONLY: 'true',
              BASE_DIR: '/srv/data/base',
              LOG_LEVEL: 'info',
              NODE_ENV: 'production',
            },
          },
        },
      },
    })
    closers.push(() => toolkit.close())
    return toolkit
  }

  it('returns READ_ONLY, BASE_DIR, LOG_LEVEL and NODE_ENV intact while API_TOKEN stays masked', async () => {
    const toolkit = await echoServer()
    const read = async (name: string) => (await toolkit.execute('fx_env', { name })).output
    expect({
      READ_ONLY: await read('READ_ONLY'),
      BASE_DIR: await read('BASE_DIR'),
      LOG_LEVEL: await read('LOG_LEVEL'),
      NODE_ENV: await read('NODE_ENV'),
      API_TOKEN: await read('API_TOKEN'),
      UPSTREAM_DSN: await read('UPSTREAM_DSN'),
    }).toStrictEqual({
      READ_ONLY: 'true',
      BASE_DIR: '/srv/data/base',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      API_TOKEN: '***',
      UPSTREAM_DSN: '***',
    })
  }, 30_000)

  it('passes {"isClean":true} through intact, and masks a secret inside JSON as a string', async () => {
    const toolkit = await echoServer()
    const echo = async (text: string) => (await toolkit.execute('fx_echo', { text })).output
    expect(await echo('{"isClean":true}')).toBe('{"isClean":true}')
    expect(JSON.parse(await echo(JSON.stringify({ readOnly: true, token })))).toStrictEqual({
      readOnly: true,
      token: '***',
    })
  }, 30_000)

  it('refuses a `secrets` option that is not a list of names', async () => {
    await expect(createToolkit({ secrets: 'API_TOKEN' as never })).rejects.toThrow(ConfigError)
  })
})
