import type { Client, McpSubscription } from '@modelcontextprotocol/client'
import { McpRequestError } from '../errors.js'

/** What a watch needs of its connection: a request on the live session, with its errors made safe. */
export interface WatchPort {
  readonly name: string
  readonly timeoutMs: number
  /** Runs one request on the live session (see `ServerRequests.request`). */
  request<Value>(method: string, run: (client: Client) => Promise<Value>): Promise<Value>
}

// One URI watched at the server: who listens, and how the server is told to stop.
interface Watched {
  listeners: Set<(uri: string) => void>
  // Settles once the server took the subscription (or refused it).
  held: Promise<() => Promise<void>>
}

/**
 * The resource subscriptions of one MCP server connection: the first listener of a URI subscribes at the
 * server (`resources/subscribe` on a 2025 session, a `subscriptions/listen` stream for that URI on a
 * 2026-07-28 one), each `notifications/resources/updated` for it reaches every listener, and the server
 * is told to stop (`resources/unsubscribe`, or the stream closed) when the last one leaves. A server
 * that does not offer subscriptions is refused with an `McpRequestError`.
 *
 * @example
 * const watch = new ResourceWatch(port)
 * const stop = await watch.subscribe('file:///notes.md', (uri) => console.log('changed', uri))
 * await stop()
 */
export class ResourceWatch {
  readonly #port: WatchPort
  readonly #watched = new Map<string, Watched>()
  // Unsubscriptions under way: a new subscription to the URI waits for its end, so it comes after.
  readonly #releasing = new Map<string, Promise<void>>()

  constructor(port: WatchPort) {
    this.#port = port
  }

  /** A `notifications/resources/updated` from the server: every listener of the URI is told. */
  updated(uri: string): void {
    for (const listener of this.#watched.get(uri)?.listeners ?? []) {
      try {
        listener(uri)
      } catch {
        // One listener's failure is its own.
      }
    }
  }

  /** Listens to the updates of `uri`; resolves once the server holds the subscription, to what ends it. */
  async subscribe(uri: string, listener: (uri: string) => void): Promise<() => Promise<void>> {
    let watched = this.#watched.get(uri)
    if (watched === undefined) {
      const created: Watched = { listeners: new Set(), held: this.#hold(uri) }
      watched = created
      this.#watched.set(uri, created)
      created.held.catch(() => {
        if (this.#watched.get(uri) === created) this.#watched.delete(uri)
      })
    }
    // Each call is its own listener, even with the same function.
    const own = (changed: string) => listener(changed)
    watched.listeners.add(own)
    const release = await watched.held.catch((error: unknown) => {
      watched.listeners.delete(own)
      throw error
    })
    let done = false
    return async () => {
      if (done) return
      done = true
      watched.listeners.delete(own)
      if (watched.listeners.size > 0 || this.#watched.get(uri) !== watched) return
      this.#watched.delete(uri)
      const releasing = release().catch(() => undefined)
      this.#releasing.set(uri, releasing)
      await releasing
      if (this.#releasing.get(uri) === releasing) this.#releasing.delete(uri)
    }
  }

  /** Subscribes at the server; resolves to what unsubscribes there. */
  async #hold(uri: string): Promise<() => Promise<void>> {
    const { name: server, timeoutMs } = this.#port
    await this.#releasing.get(uri)
    return this.#port.request('resources/subscribe', async (client) => {
      if (client.getServerCapabilities()?.resources?.subscribe !== true) {
        throw new McpRequestError(`MCP server "${server}" does not offer resource subscriptions.`, {
          server,
          method: 'resources/subscribe',
        })
      }
      if (client.getProtocolEra() !== 'modern') {
        await client.subscribeResource({ uri }, { timeout: timeoutMs })
        return () => client.unsubscribeResource({ uri }, { timeout: timeoutMs }).then(() => undefined)
      }
      const subscription: McpSubscription = await client.listen(
        { resourceSubscriptions: [uri] },
        { timeout: timeoutMs },
      )
      if (subscription.honoredFilter.resourceSubscriptions?.includes(uri) !== true) {
        await subscription.close()
        throw new McpRequestError(`MCP server "${server}" did not take the subscription to ${uri}.`, {
          server,
          method: 'subscriptions/listen',
        })
      }
      return () => subscription.close()
    })
  }
}
