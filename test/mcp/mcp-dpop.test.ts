// DPoP against a loopback authorization server and MCP server that bind tokens to the client's key.
import { afterEach, describe, expect, it } from 'vitest'
import { createToolkit, type OAuthTokenStore, type Toolkit } from '../../src/index.js'
import { type DpopFixture, startDpopFixture } from '../fixtures/mcp/dpop-server.js'
import { recordingLogger } from './mcp-fixtures.js'
import { recordingStore } from './oauth-host.js'

let fixture: DpopFixture
const toolkits: Toolkit[] = []
afterEach(async () => {
  await Promise.all(toolkits.splice(0).map((toolkit) => toolkit.close()))
  await fixture?.close()
})

async function toolkitFor(tokenStore: OAuthTokenStore) {
  const recorder = recordingLogger()
  const { id, secret } = fixture.client
  const toolkit = await createToolkit({
    logger: recorder.logger,
    mcpConfig: {
      mcpServers: {
        bound: {
          url: fixture.url,
          timeout: 10_000,
          auth: { grant: 'client_credentials', clientId: id, clientSecret: secret },
        },
      },
    },
    oauth: { tokenStore },
  })
  toolkits.push(toolkit)
  return { toolkit, lines: recorder.lines }
}

describe('DPoP-bound tokens', () => {
  it('where the authorization server offers DPoP, tokens are bound to a key and each request proves it afresh', async () => {
    fixture = await startDpopFixture({ offerDpop: true })
    const store = recordingStore()
    const { toolkit, lines } = await toolkitFor(store)
    expect(toolkit.mcpServers().bound?.reason).toBeUndefined()
    const result = await toolkit.execute('bound_whoami', {})
    expect(result.output).toBe('authorized with a DPoP token')
    expect(fixture.tokenRequests).toStrictEqual([{ proof: 'valid', tokenType: 'DPoP' }])
    // Every request that carried the token used the DPoP scheme with a valid proof of its own.
    expect(fixture.mcpRequests.length).toBeGreaterThanOrEqual(2)
    expect(fixture.mcpRequests.every((each) => each.scheme === 'DPoP' && each.proof === 'valid')).toBe(true)
    expect(new Set(fixture.jtis).size).toBe(fixture.jtis.length)
    // The private key is kept with the token it is bound to, and shown nowhere.
    const saved = [...store.saved.values()][0]
    expect(saved?.tokens?.token_type).toBe('DPoP')
    const d = saved?.dpopKey?.d
    expect(typeof d).toBe('string')
    expect(JSON.stringify([result, lines, toolkit.mcpServers(), toolkit.warnings()])).not.toContain(d)
  })

  it('a second toolkit over the same store uses the kept token with the kept key: no new token', async () => {
    fixture = await startDpopFixture({ offerDpop: true })
    const store = recordingStore()
    await toolkitFor(store)
    const again = await toolkitFor(store)
    expect(again.toolkit.mcpStatus()).toStrictEqual({ bound: 'connected' })
    expect((await again.toolkit.execute('bound_whoami', {})).isError).toBe(false)
    expect(fixture.tokenRequests).toHaveLength(1)
    expect(fixture.mcpRequests.every((each) => each.proof === 'valid')).toBe(true)
  })

  it('where it does not, tokens stay plain bearer tokens and no key is made', async () => {
    fixture = await startDpopFixture({ offerDpop: false })
    const store = recordingStore()
    const { toolkit } = await toolkitFor(store)
    expect((await toolkit.execute('bound_whoami', {})).output).toBe('authorized with a Bearer token')
    expect(fixture.tokenRequests).toStrictEqual([{ proof: 'none', tokenType: 'Bearer' }])
    expect(fixture.mcpRequests.every((each) => each.scheme === 'Bearer' && each.proof === 'none')).toBe(true)
    expect([...store.saved.values()][0]?.dpopKey).toBeUndefined()
  })
})
