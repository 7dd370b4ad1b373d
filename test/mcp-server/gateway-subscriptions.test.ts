// Resource subscriptions through the gateway: a 2025-era client of createMcpHandler subscribes to a
// resource of a source MCP server (the v1 SDK fixture, a 2025 session; the v2 conformance source, a
// 2026-07-28 connection subscribed through subscriptions/listen), the source's updates reach it, and the
// source is told to stop when the last subscriber leaves or its session ends. A URI the toolkit does not
// serve is refused, and so is a subscription past the limits.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import type { McpHandlerOptions } from '../../src/mcp-server/create-mcp-handler.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { startWatchedFixture, type WatchedFixture } from '../fixtures/mcp/watched-server.js'
import { serveSource } from './conformance-source.js'
import { serveByBearer } from './serve-fetch.js'

const closers: Array<() => Promise<unknown>> = []

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {})
})

/** A gateway over the watched fixture (named `watched`), with the handler's other `options`. */
async function gateway(
  options: Omit<McpHandlerOptions, 'authorize'> = {},
  offerSubscriptions = true,
): Promise<{ url: URL; source: WatchedFixture }> {
  const source = await startWatchedFixture({ offerSubscriptions })
  closers.push(() => source.close())
  const toolkit = await createToolkit({ mcpConfig: { mcpServers: { watched: { url: source.url } } } })
  closers.push(() => toolkit.close())
  return { url: await serveByBearer(toolkit, closers, options), source }
}

interface Subscriber {
  client: Client
  transport: StreamableHTTPClientTransport
  /** Every URI this client was told changed, in order. */
  updates: string[]
  /** Resolves once `count` updates arrived in all. */
  updated(count: number): Promise<void>
}

/** A v1 SDK client of the gateway that records the resource updates it is sent. */
async function subscriber(url: URL): Promise<Subscriber> {
  const client = new Client({ name: 'subscriptions-test', version: '1.0.0' })
  const updates: string[] = []
  const waiting: Array<{ count: number; resolve: () => void }> = []
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    updates.push(notification.params.uri)
    for (const wait of waiting.filter(({ count }) => updates.length >= count)) wait.resolve()
  })
  const transport = new StreamableHTTPClientTransport(url)
  await client.connect(transport)
  closers.push(() => client.close())
  return {
    client,
    transport,
    updates,
    updated: (count) =>
      updates.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => {
            waiting.push({ count, resolve })
          }),
  }
}

/** Resolves once `check` holds, looking again every 20 ms (for what a source logs after it answered). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20))
}

describe('resource subscriptions through the gateway', () => {
  it('declares them, subscribes at the source, and forwards its updates to the subscriber', async () => {
    const { url, source } = await gateway()
    const alice = await subscriber(url)
    expect(alice.client.getServerCapabilities()?.resources?.subscribe).toBe(true)
    await alice.client.subscribeResource({ uri: 'watch://a' })
    expect(source.log).toEqual(['subscribe watch://a'])
    expect(await source.touch('watch://a')).toBe(1)
    await alice.updated(1)
    expect(alice.updates).toEqual(['watch://a'])
  }, 30_000)

  it('stops forwarding after unsubscribe, and tells the source when the last subscriber leaves', async () => {
    const { url, source } = await gateway()
    const [alice, bob] = [await subscriber(url), await subscriber(url)]
    await alice.client.subscribeResource({ uri: 'watch://a' })
    await alice.client.subscribeResource({ uri: 'watch://b' })
    await bob.client.subscribeResource({ uri: 'watch://a' })
    // One subscription at the source per URI, whoever holds it.
    expect(source.log).toEqual(['subscribe watch://a', 'subscribe watch://b'])
    await alice.client.unsubscribeResource({ uri: 'watch://a' })
    expect(source.log).toEqual(['subscribe watch://a', 'subscribe watch://b'])
    await source.touch('watch://a')
    await source.touch('watch://b')
    // Alice's stream carries watch://b's update after where watch://a's would have been: she got none.
    await alice.updated(1)
    expect(alice.updates).toEqual(['watch://b'])
    await bob.updated(1)
    expect(bob.updates).toEqual(['watch://a'])
    await bob.client.unsubscribeResource({ uri: 'watch://a' })
    expect(source.log).toEqual(['subscribe watch://a', 'subscribe watch://b', 'unsubscribe watch://a'])
  }, 30_000)

  it("ends a closed session's subscriptions at the source", async () => {
    const { url, source } = await gateway()
    const alice = await subscriber(url)
    await alice.client.subscribeResource({ uri: 'watch://c' })
    await alice.transport.terminateSession()
    await until(() => source.log.includes('unsubscribe watch://c'))
    expect(source.log).toEqual(['subscribe watch://c', 'unsubscribe watch://c'])
  }, 30_000)

  it('refuses a URI the toolkit does not serve, without asking the source', async () => {
    const { url, source } = await gateway()
    const alice = await subscriber(url)
    // The protocol's resource-not-found error, as a read of it gets.
    const refused = alice.client.subscribeResource({ uri: 'watch://elsewhere' })
    await expect(refused).rejects.toMatchObject({ code: -32602 })
    await expect(refused).rejects.toThrow(/Resource not found: watch:\/\/elsewhere/)
    expect(source.log).toEqual([])
  }, 30_000)

  it('refuses a subscription past the per-session and overall limits, and counts unsubscribes', async () => {
    const { url, source } = await gateway({ maxSubscriptionsPerSession: 2, maxSubscriptions: 3 })
    const [alice, bob] = [await subscriber(url), await subscriber(url)]
    await alice.client.subscribeResource({ uri: 'watch://a' })
    await alice.client.subscribeResource({ uri: 'watch://b' })
    // Subscribing again to the same URI holds nothing more.
    await alice.client.subscribeResource({ uri: 'watch://b' })
    const tooMany = alice.client.subscribeResource({ uri: 'watch://c' })
    await expect(tooMany).rejects.toMatchObject({ code: -32603 })
    await expect(tooMany).rejects.toThrow(/Subscription limit reached \(2 per session\)/)
    await bob.client.subscribeResource({ uri: 'watch://c' })
    await expect(bob.client.subscribeResource({ uri: 'watch://a' })).rejects.toThrow(
      /Subscription limit reached \(3 in all\)/,
    )
    await alice.client.unsubscribeResource({ uri: 'watch://a' })
    await bob.client.subscribeResource({ uri: 'watch://a' })
    expect(source.log).not.toContain('subscribe watch://elsewhere')
  }, 30_000)

  it('offers no subscriptions when no source does', async () => {
    const { url, source } = await gateway({}, false)
    const alice = await subscriber(url)
    expect(alice.client.getServerCapabilities()?.resources).toEqual({})
    await expect(alice.client.subscribeResource({ uri: 'watch://a' })).rejects.toMatchObject({
      code: -32601,
    })
    expect(source.log).toEqual([])
  }, 30_000)

  it('subscribes at a 2026-07-28 source through subscriptions/listen and forwards its updates', async () => {
    const source = await serveSource()
    closers.push(() => source.close())
    const toolkit = await createToolkit({ mcpConfig: { mcpServers: { test: { url: `${source.url}/mcp` } } } })
    closers.push(() => toolkit.close())
    const alice = await subscriber(await serveByBearer(toolkit, closers))
    await alice.client.subscribeResource({ uri: 'test://watched-resource' })
    source.notify.resourceUpdated('test://static-text')
    source.notify.resourceUpdated('test://watched-resource')
    await alice.updated(1)
    expect(alice.updates).toEqual(['test://watched-resource'])
  }, 30_000)
})
