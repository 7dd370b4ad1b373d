// OAuth's newer rules against a loopback authorization server that misbehaves on cue: the redirect's
// `iss` and `state` are checked before a code is redeemed, clients and tokens stay with the authorization
// server that issued them, client credentials can be a signed JWT, and an entry with only a `url` signs in
// on a 401 challenge.
import { generateKeyPairSync, type KeyObject } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import {
  createToolkit,
  type McpAuthConfig,
  type McpServerConfig,
  type OAuthOptions,
  type Toolkit,
} from '../../src/index.js'
import {
  type OAuthFixture,
  type OAuthFixtureOptions,
  startOAuthFixture,
} from '../fixtures/mcp/oauth-server.js'
import { recordingLogger } from './mcp-fixtures.js'
import { approveAt, REDIRECT, recordingStore } from './oauth-host.js'

let fixture: OAuthFixture | undefined
const toolkits: Toolkit[] = []
const ENV_KEY = 'TOOLNEXUS_TEST_SIGNING_KEY'
afterEach(async () => {
  await Promise.all(toolkits.splice(0).map((toolkit) => toolkit.close()))
  await fixture?.close()
  fixture = undefined
  delete process.env[ENV_KEY]
})

/** A browser that approves at once and hands the toolkit the whole callback URL. */
const browser: OAuthOptions = {
  redirectUrl: REDIRECT,
  onAuthorization: async (request) => ({ callbackUrl: await approveAt(request) }),
}

async function toolkitFor(entry: Omit<McpServerConfig, 'url'>, oauth: OAuthOptions) {
  const recorder = recordingLogger()
  const toolkit = await createToolkit({
    logger: recorder.logger,
    mcpConfig: { mcpServers: { secure: { url: fixture?.url ?? '', timeout: 10_000, ...entry } } },
    oauth,
  })
  toolkits.push(toolkit)
  return { toolkit, lines: recorder.lines }
}

const codeRedeemed = () =>
  fixture?.log.some((entry) => entry.endpoint === 'token' && entry.grant === 'authorization_code')

describe('OAuth: the authorization response', () => {
  it('a callback whose iss is the authorization server, with the state sent, is redeemed', async () => {
    fixture = await startOAuthFixture({ issSupported: true, issInRedirect: 'correct' })
    const { toolkit } = await toolkitFor({ auth: {} }, browser)
    expect(toolkit.mcpStatus()).toStrictEqual({ secure: 'connected' })
    expect((await toolkit.execute('secure_whoami', {})).isError).toBe(false)
  })

  it.each<[string, OAuthFixtureOptions]>([
    ['an iss naming another authorization server', { issSupported: true, issInRedirect: 'wrong' }],
    ['an iss the server does not advertise, naming another one', { issInRedirect: 'wrong' }],
    ['no iss from a server that advertises it', { issSupported: true, issInRedirect: 'none' }],
    ['a state other than the one sent', { tamperState: true }],
  ])(
    '%s: the code is refused, never redeemed, and the reason does not repeat the callback',
    async (_, script) => {
      fixture = await startOAuthFixture(script)
      const { toolkit, lines } = await toolkitFor({ auth: {} }, browser)
      const info = toolkit.mcpServers().secure
      expect(info?.status).toBe('failed')
      expect(codeRedeemed()).toBe(false)
      const shown = JSON.stringify([info, lines])
      expect(shown).not.toContain(fixture.wrongIssuer)
      expect(shown).not.toContain('-forged')
    },
  )
})

describe('OAuth: the authorization server moves', () => {
  it('a dynamically registered client registers again with the new server; the old client id never goes there', async () => {
    fixture = await startOAuthFixture()
    const store = recordingStore()
    const first = await toolkitFor({ auth: {} }, { ...browser, tokenStore: store })
    expect(first.toolkit.mcpStatus()).toStrictEqual({ secure: 'connected' })
    const oldClient = [...store.saved.values()][0]?.client?.client_id
    expect(oldClient).toMatch(/^dynamic-as1-/)

    fixture.moveAuthorizationServer()
    const second = await toolkitFor({ auth: {} }, { ...browser, tokenStore: store })
    expect(second.toolkit.mcpStatus()).toStrictEqual({ secure: 'connected' })
    expect((await second.toolkit.execute('secure_whoami', {})).isError).toBe(false)
    const atNew = fixture.log.filter((entry) => entry.as === 'as2')
    expect(atNew.map((entry) => entry.endpoint)).toStrictEqual(['register', 'authorize', 'token'])
    expect(atNew.some((entry) => entry.clientId === oldClient)).toBe(false)
    expect([...store.saved.values()][0]?.client?.client_id).toMatch(/^dynamic-as2-/)
  })

  it('mid-session: the next call after the move signs in with the new server', async () => {
    fixture = await startOAuthFixture()
    const { toolkit } = await toolkitFor({ auth: {} }, browser)
    expect(toolkit.mcpStatus()).toStrictEqual({ secure: 'connected' })
    fixture.moveAuthorizationServer()
    const result = await toolkit.execute('secure_whoami', {})
    expect(result.isError).toBe(false)
    expect(fixture.log.filter((entry) => entry.as === 'as2').map((entry) => entry.endpoint)).toStrictEqual([
      'register',
      'authorize',
      'token',
    ])
  })

  it('a pre-registered client is refused rather than sent to the new server', async () => {
    fixture = await startOAuthFixture()
    const store = recordingStore()
    const { id, secret } = fixture.client
    const auth: McpAuthConfig = { grant: 'client_credentials', clientId: id, clientSecret: secret }
    const first = await toolkitFor({ auth }, { tokenStore: store })
    expect(first.toolkit.mcpStatus()).toStrictEqual({ secure: 'connected' })

    fixture.moveAuthorizationServer()
    const second = await toolkitFor({ auth }, { tokenStore: store })
    const info = second.toolkit.mcpServers().secure
    expect(info).toMatchObject({ status: 'failed', reason: expect.stringContaining('auth.clientId') })
    expect(fixture.log.filter((entry) => entry.as === 'as2')).toStrictEqual([])
    // The store keeps the client's binding, not its secret.
    expect(JSON.stringify([...store.saved.values()])).not.toContain(secret)
  })
})

describe('OAuth: dynamic registration says what kind of application registers', () => {
  it.each([
    ['a loopback redirect', REDIRECT, 'native'],
    ['a custom scheme', 'com.example.app:/callback', 'native'],
    ['a web redirect', 'https://app.example.com/oauth/callback', 'web'],
  ])('%s registers as %s… (%s)', async (_, redirectUrl, kind) => {
    fixture = await startOAuthFixture()
    const oauth: OAuthOptions = {
      onAuthorization: async (request) => ({ callbackUrl: await approveAt(request) }),
    }
    await toolkitFor({ auth: { redirectUrl } }, oauth)
    expect(fixture.log.find((entry) => entry.endpoint === 'register')?.applicationType).toBe(kind)
  })
})

function keyPair(kind: 'ec' | 'rsa' | 'ed25519'): { privateKey: KeyObject; publicKey: KeyObject } {
  if (kind === 'ec') return generateKeyPairSync('ec', { namedCurve: 'P-256' })
  if (kind === 'rsa') return generateKeyPairSync('rsa', { modulusLength: 2048 })
  return generateKeyPairSync('ed25519')
}

describe('OAuth: client credentials with a signed JWT assertion', () => {
  it.each<[string, 'ec' | 'rsa' | 'ed25519', 'pem' | 'jwk', string | undefined]>([
    ['an EC key as PEM from an env var, ES256', 'ec', 'pem', 'ES256'],
    ['an RSA key as PEM, its algorithm from the key', 'rsa', 'pem', undefined],
    ['an Ed25519 key as a JWK object, EdDSA', 'ed25519', 'jwk', 'EdDSA'],
  ])(
    '%s: the token request carries a valid assertion; the key appears nowhere',
    async (_, kind, form, algorithm) => {
      const { privateKey, publicKey } = keyPair(kind)
      const jwk = privateKey.export({ format: 'jwk' }) as Record<string, unknown>
      fixture = await startOAuthFixture({ assertionKey: publicKey.export({ format: 'jwk' }) as never })
      const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()
      process.env[ENV_KEY] = pem
      const auth: McpAuthConfig = {
        grant: 'client_credentials',
        clientId: fixture.client.id,
        privateKey: form === 'pem' ? `\${${ENV_KEY}}` : jwk,
        ...(algorithm !== undefined && { algorithm }),
      }
      const { toolkit, lines } = await toolkitFor({ auth }, {})
      expect(toolkit.mcpStatus()).toStrictEqual({ secure: 'connected' })
      const [request] = fixture.log
      expect(request).toMatchObject({
        endpoint: 'token',
        grant: 'client_credentials',
        clientId: fixture.client.id,
      })
      expect(request?.assertion).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
      const result = await toolkit.execute('secure_whoami', {})
      expect(result.isError).toBe(false)
      const shown = JSON.stringify([result, lines, toolkit.mcpServers(), toolkit.warnings()])
      expect(shown).not.toContain(String(jwk.d))
      for (const line of pem.split('\n').filter((each) => each.length > 20)) expect(shown).not.toContain(line)
    },
  )

  it('an assertion signed with another key is refused by the server, and the server fails', async () => {
    fixture = await startOAuthFixture({
      assertionKey: keyPair('ec').publicKey.export({ format: 'jwk' }) as never,
    })
    const other = keyPair('ec').privateKey.export({ format: 'jwk' }) as Record<string, unknown>
    const auth: McpAuthConfig = {
      grant: 'client_credentials',
      clientId: fixture.client.id,
      privateKey: other,
    }
    const { toolkit } = await toolkitFor({ auth }, {})
    expect(toolkit.mcpServers().secure?.status).toBe('failed')
    expect(JSON.stringify(toolkit.mcpServers())).not.toContain(String(other.d))
  })
})

describe('OAuth: an entry with only a url', () => {
  it('signs in on the 401 challenge when the toolkit has oauth.onAuthorization', async () => {
    fixture = await startOAuthFixture()
    const { toolkit } = await toolkitFor({}, browser)
    expect(toolkit.mcpStatus()).toStrictEqual({ secure: 'connected' })
    expect(fixture.log.map((entry) => entry.endpoint)).toStrictEqual(['register', 'authorize', 'token'])
    expect((await toolkit.execute('secure_whoami', {})).isError).toBe(false)
  })

  it('without oauth handlers, fails with what the server said and how to configure OAuth', async () => {
    fixture = await startOAuthFixture()
    const { toolkit } = await toolkitFor({}, {})
    const reason = toolkit.mcpServers().secure?.reason ?? ''
    expect(reason).toContain('Missing Authorization header')
    expect(reason).toContain('oauth: { onAuthorization, redirectUrl }')
    expect(reason).toContain('"auth"')
    expect(fixture.log).toStrictEqual([])
  })
})
