import { afterEach, describe, expect, it } from 'vitest'
import { createToolkit, type McpAuthConfig, type OAuthOptions, type Toolkit } from '../../src/index.js'
import { type OAuthFixture, startOAuthFixture } from '../fixtures/mcp/oauth-server.js'
import { recordingLogger } from './mcp-fixtures.js'
import { approveAt, REDIRECT, recordingStore } from './oauth-host.js'

let fixture: OAuthFixture | undefined
const toolkits: Toolkit[] = []
afterEach(async () => {
  await Promise.all(toolkits.splice(0).map((toolkit) => toolkit.close()))
  await fixture?.close()
  fixture = undefined
})

/** The code of a redirect the loopback authorization server approved at once. */
async function approve(request: { url: URL }): Promise<{ code: string }> {
  const location = await approveAt(request)
  expect(location.origin + location.pathname).toBe(REDIRECT)
  return { code: location.searchParams.get('code') ?? '' }
}

async function toolkitFor(auth: Record<string, unknown>, oauth: OAuthOptions) {
  const recorder = recordingLogger()
  const toolkit = await createToolkit({
    logger: recorder.logger,
    mcpConfig: {
      mcpServers: { secure: { url: fixture?.url ?? '', timeout: 10_000, auth: auth as McpAuthConfig } },
    },
    oauth,
  })
  toolkits.push(toolkit)
  return { toolkit, lines: recorder.lines }
}

describe('OAuth against a loopback authorization server', () => {
  it('authorization code + PKCE with dynamic registration, through the host redirect handler', async () => {
    fixture = await startOAuthFixture()
    const store = recordingStore()
    const asked: string[] = []
    const { toolkit } = await toolkitFor(
      {},
      {
        redirectUrl: REDIRECT,
        tokenStore: store,
        onAuthorization: (request) => {
          asked.push(request.server)
          return approve(request)
        },
      },
    )
    expect(toolkit.mcpStatus()).toStrictEqual({ secure: 'connected' })
    expect(asked).toStrictEqual(['secure'])
    expect(
      fixture.log.map((entry) => [entry.endpoint, entry.grant ?? null, entry.pkce ?? null]),
    ).toStrictEqual([
      ['register', null, null],
      ['authorize', null, true],
      ['token', 'authorization_code', true],
    ])
    const result = await toolkit.execute('secure_whoami', {})
    expect(result.isError).toBe(false)
    // The token the server echoed back is masked: a token never appears in a result.
    const token = fixture.issued[0] as string
    expect(result.output).not.toContain(token)
    expect(result.output).toMatch(/^authorized with Bearer \*+/)
    // Saved in the host's store: client registration and tokens.
    const saved = [...store.saved.values()][0]
    expect(saved?.tokens?.access_token).toBe(token)
    expect(saved?.client?.client_id).toMatch(/^dynamic-/)

    // A second toolkit with the same store connects with the saved token: no new authorization.
    const again = await toolkitFor(
      {},
      {
        redirectUrl: REDIRECT,
        tokenStore: store,
        onAuthorization: () => Promise.reject(new Error('not again')),
      },
    )
    expect(again.toolkit.mcpStatus()).toStrictEqual({ secure: 'connected' })
    expect(fixture.log.filter((entry) => entry.endpoint === 'authorize')).toHaveLength(1)
  })

  it('client credentials with a pre-registered client; the secret and tokens appear nowhere', async () => {
    fixture = await startOAuthFixture()
    const { id, secret } = fixture.client
    const { toolkit, lines } = await toolkitFor(
      { grant: 'client_credentials', clientId: id, clientSecret: secret },
      {},
    )
    expect(toolkit.mcpStatus()).toStrictEqual({ secure: 'connected' })
    expect(fixture.log).toStrictEqual([
      { endpoint: 'token', as: 'as1', grant: 'client_credentials', clientId: id },
    ])
    const result = await toolkit.execute('secure_whoami', {})
    const everything = JSON.stringify([result, lines, toolkit.mcpServers(), toolkit.warnings()])
    expect(everything).not.toContain(secret)
    for (const token of fixture.issued) expect(everything).not.toContain(token)
  })

  it('a wrong client secret fails that server with a reason that does not show the secret', async () => {
    fixture = await startOAuthFixture()
    const wrong = 'definitely-wrong-secret-1234'
    const { toolkit, lines } = await toolkitFor(
      { grant: 'client_credentials', clientId: fixture.client.id, clientSecret: wrong },
      {},
    )
    const info = toolkit.mcpServers().secure
    expect(info?.status).toBe('failed')
    expect(JSON.stringify([info, lines])).not.toContain(wrong)
  })

  it('the authorization code flow without a host redirect handler fails with a reason that says what to add', async () => {
    fixture = await startOAuthFixture()
    const { toolkit } = await toolkitFor({}, {})
    expect(toolkit.mcpServers().secure).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('oauth.onAuthorization'),
    })
  })

  it('client_credentials without a secret is a config problem named at load', async () => {
    fixture = await startOAuthFixture()
    const { toolkit } = await toolkitFor({ grant: 'client_credentials', clientId: 'x' }, {})
    expect(toolkit.mcpServers().secure?.reason).toContain('needs "clientId" and "clientSecret"')
  })
})
