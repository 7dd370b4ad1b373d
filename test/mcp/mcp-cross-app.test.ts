// Enterprise-managed authorization against a loopback identity provider and authorization server: the
// user's ID token from the host is exchanged for an ID-JAG, the ID-JAG for the MCP server's token.
import { afterEach, describe, expect, it } from 'vitest'
import {
  ConfigError,
  createToolkit,
  type McpAuthConfig,
  type OAuthOptions,
  type Toolkit,
} from '../../src/index.js'
import { type EnterpriseIdp, startEnterpriseIdp } from '../fixtures/mcp/enterprise-idp.js'
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
