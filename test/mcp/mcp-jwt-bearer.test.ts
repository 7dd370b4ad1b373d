// JWT bearer grants against a loopback authorization server: a workload's JWT from the platform, and
// enterprise-managed authorization, where the user's ID token from the host is exchanged at a loopback
// identity provider for an ID-JAG, and the ID-JAG for the MCP server's token.
import { generateKeyPairSync } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  ConfigError,
  createToolkit,
  type McpAuthConfig,
  type OAuthOptions,
  type Toolkit,
} from '../../src/index.js'
import { type EnterpriseIdp, signedJwt, startEnterpriseIdp } from '../fixtures/mcp/enterprise-idp.js'
import { type OAuthFixture, startOAuthFixture } from '../fixtures/mcp/oauth-server.js'
import { recordingLogger } from './mcp-fixtures.js'
import { recordingStore } from './oauth-host.js'

/** The MCP client the authorization server has registered; the identity provider's grants name it. */
const MCP_CLIENT = 'preregistered-client'

let idp: EnterpriseIdp
let fixture: OAuthFixture
const toolkits: Toolkit[] = []
afterEach(async () => {
  await Promise.all(toolkits.splice(0).map((toolkit) => toolkit.close()))
  await Promise.all([fixture?.close(), idp?.close()])
})

async function start() {
  idp = await startEnterpriseIdp(MCP_CLIENT)
  fixture = await startOAuthFixture({ grantKey: idp.grantKey })
}

function enterpriseAuth(idpFields: Record<string, string> = {}): McpAuthConfig {
  return {
    grant: 'cross_app_access',
    clientId: fixture.client.id,
    clientSecret: fixture.client.secret,
    idp: { issuer: idp.issuer, clientId: idp.client.id, clientSecret: idp.client.secret, ...idpFields },
  }
}

async function toolkitFor(auth: McpAuthConfig, oauth: OAuthOptions) {
  const recorder = recordingLogger()
  const toolkit = await createToolkit({
    logger: recorder.logger,
    mcpConfig: { mcpServers: { crm: { url: fixture.url, timeout: 10_000, auth } } },
    oauth,
  })
  toolkits.push(toolkit)
  return { toolkit, lines: recorder.lines }
}

describe('enterprise-managed authorization (grant "cross_app_access")', () => {
  it("exchanges the host's ID token for a grant, the grant for a token; no token or secret shows anywhere", async () => {
    await start()
    const asked: unknown[] = []
    const store = recordingStore()
    const { toolkit, lines } = await toolkitFor(enterpriseAuth(), {
      tokenStore: store,
      idToken: (request) => {
        asked.push(request)
        return idp.idToken
      },
    })
    expect(toolkit.mcpServers().crm?.reason).toBeUndefined()
    expect(toolkit.mcpStatus()).toStrictEqual({ crm: 'connected' })
    expect(asked).toStrictEqual([{ server: 'crm', issuer: idp.issuer }])
    // The exchange names the MCP server's authorization server and resource.
    const exchange = idp.log.find((entry) => entry.path === '/token')?.form
    expect(exchange).toMatchObject({
      subject_token: idp.idToken,
      audience: new URL(fixture.url).origin,
      resource: fixture.url,
    })
    // The grant is redeemed with the client's own credentials, as a JWT bearer grant.
    expect(fixture.log).toStrictEqual([
      {
        endpoint: 'token',
        as: 'as1',
        grant: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        clientId: MCP_CLIENT,
        assertion: idp.issued[0],
      },
    ])
    const result = await toolkit.execute('crm_whoami', {})
    expect(result.isError).toBe(false)
    const everything = JSON.stringify([result, lines, toolkit.mcpServers(), toolkit.warnings()])
    for (const secret of [
      idp.idToken,
      idp.client.secret,
      fixture.client.secret,
      ...idp.issued,
      ...fixture.issued,
    ]) {
      expect(everything).not.toContain(secret)
    }
    // The token is kept in the host's store; the ID token and the grant are not.
    const saved = JSON.stringify([...store.saved.values()])
    expect(saved).toContain(fixture.issued[0])
    expect(saved).not.toContain(idp.idToken)
    expect(saved).not.toContain(idp.issued[0])
  })

  it("with the identity provider's token endpoint given, its metadata is not asked for", async () => {
    await start()
    const { toolkit } = await toolkitFor(enterpriseAuth({ tokenEndpoint: idp.tokenEndpoint }), {
      idToken: () => idp.idToken,
    })
    expect(toolkit.mcpStatus()).toStrictEqual({ crm: 'connected' })
    expect(idp.log.map((entry) => entry.path)).toStrictEqual(['/token'])
  })

  it('without oauth.idToken the server fails with a reason that names it', async () => {
    await start()
    const { toolkit } = await toolkitFor(enterpriseAuth(), {})
    expect(toolkit.mcpServers().crm).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('oauth.idToken'),
    })
    expect(idp.log).toStrictEqual([])
  })

  it('an ID token the identity provider refuses fails the server without showing the token', async () => {
    await start()
    const forged = `forged-id-token-${'x'.repeat(24)}`
    const { toolkit, lines } = await toolkitFor(enterpriseAuth(), { idToken: async () => forged })
    const info = toolkit.mcpServers().crm
    expect(info?.status).toBe('failed')
    expect(fixture.log).toStrictEqual([])
    expect(JSON.stringify([info, lines])).not.toContain(forged)
  })

  it('an empty ID token is refused before anything is sent', async () => {
    await start()
    const { toolkit } = await toolkitFor(enterpriseAuth(), { idToken: () => '' })
    expect(toolkit.mcpServers().crm?.reason).toContain('gave no ID token')
    expect(idp.log.filter((entry) => entry.path === '/token')).toStrictEqual([])
  })

  it.each([
    [{ grant: 'cross_app_access', clientId: 'a', clientSecret: 's' }, 'needs "clientId" and "clientSecret"'],
    [{ grant: 'cross_app_access', clientId: 'a', idp: { issuer: 'https://idp', clientId: 'b' } }, 'needs'],
    [
      { clientId: 'a', idp: { issuer: 'https://idp', clientId: 'b' } },
      '"auth.idp" names the identity provider',
    ],
    [
      {
        grant: 'cross_app_access',
        clientId: 'a',
        clientSecret: 's',
        idp: { issuer: 'not a url', clientId: 'b' },
      },
      '"auth.idp.issuer" must be a URL',
    ],
    [
      { grant: 'cross_app_access', clientId: 'a', clientSecret: 's', idp: { issuer: 'https://idp' } },
      '"auth.idp" needs "issuer"',
    ],
  ])('a config problem is named at load: %j', async (auth, reason) => {
    await start()
    const { toolkit } = await toolkitFor(auth as McpAuthConfig, { idToken: () => idp.idToken })
    expect(toolkit.mcpServers().crm).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining(reason),
    })
  })

  it('oauth handlers that are not functions are refused with the field', async () => {
    for (const [oauth, field] of [
      [{ idToken: 'token' }, 'oauth.idToken'],
      [{ onAuthorization: {} }, 'oauth.onAuthorization'],
      ['yes', 'oauth'],
    ] as const) {
      const error = await createToolkit({ oauth: oauth as never }).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as ConfigError).field).toBe(field)
    }
  })
})

describe('workload identity (grant "jwt_bearer")', () => {
  const platform = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  let folder = ''
  afterEach(async () => {
    if (folder !== '') await rm(folder, { recursive: true, force: true })
    folder = ''
  })
  async function startWorkload() {
    fixture = await startOAuthFixture({
      workloadKey: platform.publicKey.export({ format: 'jwk' }) as Record<string, unknown>,
    })
    folder = await mkdtemp(join(tmpdir(), 'toolnexus-wif-'))
    const jwt = signedJwt(
      platform.privateKey,
      {},
      { iss: 'https://platform.test', sub: 'ci', aud: new URL(fixture.url).origin },
    )
    return jwt
  }

  it('the JWT in assertionFile is the grant: read when a token is needed, shown nowhere', async () => {
    const jwt = await startWorkload()
    const file = join(folder, 'token')
    await writeFile(file, `${jwt}\n`)
    const { toolkit, lines } = await toolkitFor(
      { grant: 'jwt_bearer', clientId: 'ci', assertionFile: file },
      {},
    )
    expect(toolkit.mcpServers().crm?.reason).toBeUndefined()
    expect(fixture.log).toStrictEqual([
      {
        endpoint: 'token',
        as: 'as1',
        grant: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        clientId: 'ci',
        assertion: jwt,
      },
    ])
    const result = await toolkit.execute('crm_whoami', {})
    expect(result.isError).toBe(false)
    const everything = JSON.stringify([result, lines, toolkit.mcpServers(), toolkit.warnings()])
    for (const secret of [jwt, ...fixture.issued]) expect(everything).not.toContain(secret)
  })

  it('a JWT from the environment through "${VAR}" works the same, masked', async () => {
    const jwt = await startWorkload()
    vi.stubEnv('WORKLOAD_JWT', jwt)
    const { toolkit, lines } = await toolkitFor(
      { grant: 'jwt_bearer', clientId: 'ci', assertion: '${WORKLOAD_JWT}' },
      {},
    ).finally(() => vi.unstubAllEnvs())
    expect(toolkit.mcpStatus()).toStrictEqual({ crm: 'connected' })
    expect(JSON.stringify([lines, toolkit.mcpServers()])).not.toContain(jwt)
  })

  it('a JWT for another audience is refused by the server: the reason shows neither JWT nor token', async () => {
    await startWorkload()
    const wrong = signedJwt(
      platform.privateKey,
      {},
      { iss: 'https://platform.test', sub: 'ci', aud: 'https://elsewhere.test' },
    )
    const { toolkit, lines } = await toolkitFor({ grant: 'jwt_bearer', clientId: 'ci', assertion: wrong }, {})
    const info = toolkit.mcpServers().crm
    expect(info?.status).toBe('failed')
    expect(JSON.stringify([info, lines])).not.toContain(wrong)
  })

  it.each([
    ['missing', undefined, 'cannot be read (ENOENT)'],
    ['empty', '  \n', 'holds no JWT (empty)'],
    ['too large', 'x'.repeat(70_000), 'holds no JWT (over 65536 bytes)'],
  ])(
    'a token file that is %s fails the server naming the file, before any token request',
    async (_, content, reason) => {
      await startWorkload()
      const file = join(folder, 'token')
      if (content !== undefined) await writeFile(file, content)
      const { toolkit } = await toolkitFor({ grant: 'jwt_bearer', clientId: 'ci', assertionFile: file }, {})
      expect(toolkit.mcpServers().crm?.reason).toContain(`the workload token file ${file} ${reason}`)
      expect(fixture.log).toStrictEqual([])
    },
  )

  it.each([
    [{ grant: 'jwt_bearer', clientId: 'ci' }, 'needs "clientId" and one of "assertionFile"'],
    [
      { grant: 'jwt_bearer', clientId: 'ci', assertion: 'a', assertionFile: 'b' },
      'needs "clientId" and one of',
    ],
    [{ grant: 'jwt_bearer', assertion: 'a' }, 'needs "clientId"'],
    [
      { grant: 'client_credentials', clientId: 'a', clientSecret: 's', assertion: 'x' },
      'are the grant of "grant": "jwt_bearer"',
    ],
  ])('a config problem is named at load: %j', async (auth, reason) => {
    await startWorkload()
    const { toolkit } = await toolkitFor(auth as McpAuthConfig, {})
    expect(toolkit.mcpServers().crm).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining(reason),
    })
  })
})
