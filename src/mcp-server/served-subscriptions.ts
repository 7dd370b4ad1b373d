import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'
import { ConfigError, McpRequestError } from '../errors.js'
import type { Toolkit } from '../toolkit/toolkit.js'

/**
 * How many resource subscriptions a gateway holds for its clients.
 *
 * @example
 * const limits: SubscriptionLimits = { perSession: 100, total: 10_000 }
 */
export interface SubscriptionLimits {
  /** Subscriptions one client session may hold at once. */
  perSession: number
  /** Subscriptions every session together may hold at once. */
  total: number
}

const DEFAULT_PER_SESSION = 100
const DEFAULT_TOTAL = 10_000

/**
 * The subscription limits of a gateway from its options, checked: whole numbers of at least 1.
 *
 * @example
 * const limits = subscriptionLimits({ maxSubscriptionsPerSession: 10 }) // { perSession: 10, total: 10000 }
 */
export function subscriptionLimits(options: {
  maxSubscriptionsPerSession?: number | undefined
  maxSubscriptions?: number | undefined
}): SubscriptionLimits {
  const perSession = options.maxSubscriptionsPerSession ?? DEFAULT_PER_SESSION
  const total = options.maxSubscriptions ?? DEFAULT_TOTAL
  for (const [field, value] of [
    ['maxSubscriptionsPerSession', perSession],
    ['maxSubscriptions', total],
  ] as const) {
    if (!(Number.isInteger(value) && value >= 1)) {
      throw new ConfigError(`\`${field}\` must be a whole number of at least 1; got ${String(value)}.`, {
        field,
      })
    }
  }
  return { perSession, total }
}

/** One served session's subscriptions. */
export interface SessionSubscriptions {
  /** Subscribes the session to `uri` (again is a no-op); rejects with the JSON-RPC error to answer. */
  subscribe(uri: string): Promise<void>
  /** Ends the session's subscription to `uri` (none is a no-op). */
  unsubscribe(uri: string): Promise<void>
  /** Ends every subscription of the session: it closed. */
  close(): Promise<void>
}

// One URI subscribed at its source: the sessions told of its updates, and what ends it there.
interface Held {
  sessions: Set<Subscriber>
  stop: Promise<(() => Promise<void>) | undefined>
}

interface Subscriber {
  uris: Set<string>
  notify: (uri: string) => void
  closed: boolean
}

/**
 * The resource subscriptions of every session of one gateway, passed through to the toolkit's MCP
 * servers: a URI is subscribed at its server once, when its first session subscribes, each update the
 * server sends goes to every session subscribed to it, and the server is told to stop when the last one
 * unsubscribes or closes. A URI the toolkit does not serve (no server lists it or a template of its
 * matches it) is refused with resource-not-found, one whose server offers no subscriptions with
 * invalid-params, and past `limits` a subscription is refused with `-32603` "Subscription limit
 * reached", as the SDK refuses a listen stream past its own limit.
 *
 * @example
 * const subscriptions = new ServedSubscriptions(toolkit, limits, ownerOf)
 * const session = subscriptions.session((uri) => server.sendResourceUpdated({ uri }))
 * await session.subscribe('test://watched-resource')
 */
export class ServedSubscriptions {
  readonly #toolkit: Toolkit
  readonly #limits: SubscriptionLimits
  readonly #ownerOf: (uri: string) => Promise<string | undefined>
  readonly #held = new Map<string, Held>()
  #total = 0

  constructor(
    toolkit: Toolkit,
    limits: SubscriptionLimits,
    ownerOf: (uri: string) => Promise<string | undefined>,
  ) {
    this.#toolkit = toolkit
    this.#limits = limits
    this.#ownerOf = ownerOf
  }

  /** Whether subscriptions can be honoured now: the toolkit passes them on and a server offers them. */
  offered(): boolean {
    if (this.#toolkit.subscribeResource === undefined) return false
    return Object.values(this.#toolkit.mcpServers()).some((info) => info.resourceSubscriptions === true)
  }

  /** The subscriptions of one new session, whose updates go to `notify`. */
  session(notify: (uri: string) => void): SessionSubscriptions {
    const subscriber: Subscriber = { uris: new Set(), notify, closed: false }
    return {
      subscribe: (uri) => this.#subscribe(subscriber, uri),
      unsubscribe: (uri) => this.#unsubscribe(subscriber, uri),
      close: async () => {
        subscriber.closed = true
        await Promise.all([...subscriber.uris].map((uri) => this.#unsubscribe(subscriber, uri)))
      },
    }
  }

  async #subscribe(subscriber: Subscriber, uri: string): Promise<void> {
    if (subscriber.uris.has(uri) || subscriber.closed) return
    const { perSession, total } = this.#limits
    if (subscriber.uris.size >= perSession || this.#total >= total) {
      const which = subscriber.uris.size >= perSession ? `${perSession} per session` : `${total} in all`
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `Subscription limit reached (${which}): unsubscribe from a resource first.`,
      )
    }
    // Counted before anything is awaited, so concurrent subscriptions cannot pass the limits.
    subscriber.uris.add(uri)
    this.#total++
    try {
      let held = await this.#hold(uri)
      // Its last session left while this one waited: subscribe at the source afresh.
      while (this.#held.get(uri) !== held) held = await this.#hold(uri)
      held.sessions.add(subscriber)
      await held.stop
    } catch (error) {
      await this.#unsubscribe(subscriber, uri)
      throw error
    }
    // Closed while it was being subscribed: its close did not see this one.
    if (subscriber.closed) await this.#unsubscribe(subscriber, uri)
  }

  /** The source's subscription to `uri`, made when no session holds one. */
  async #hold(uri: string): Promise<Held> {
    const known = this.#held.get(uri)
    if (known !== undefined) return known
    const owner = await this.#ownerOf(uri)
    if (owner === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.ResourceNotFound,
        `Resource not found: ${uri.slice(0, 200)}`,
        {
          uri,
        },
      )
    }
    const subscribe = this.#toolkit.subscribeResource?.bind(this.#toolkit)
    if (subscribe === undefined || this.#toolkit.mcpServers()[owner]?.resourceSubscriptions !== true) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Resource ${uri.slice(0, 200)} cannot be subscribed to: its server offers no subscriptions.`,
      )
    }
    // Another subscription to the URI may have started while the owner was looked up.
    const raced = this.#held.get(uri)
    if (raced !== undefined) return raced
    const sessions = new Set<Subscriber>()
    const onUpdated = (updated: string): void => {
      for (const session of sessions) session.notify(updated)
    }
    const held: Held = { sessions, stop: Promise.resolve(undefined) }
    held.stop = subscribe(owner, uri, onUpdated).catch((error: unknown) => {
      if (this.#held.get(uri) === held) this.#held.delete(uri)
      if (error instanceof McpRequestError)
        throw new ProtocolError(ProtocolErrorCode.InternalError, error.message)
      throw error
    })
    this.#held.set(uri, held)
    return held
  }

  async #unsubscribe(subscriber: Subscriber, uri: string): Promise<void> {
    if (!subscriber.uris.delete(uri)) return
    this.#total--
    const held = this.#held.get(uri)
    if (held === undefined || !held.sessions.delete(subscriber) || held.sessions.size > 0) return
    this.#drop(uri, held)
    const stop = await held.stop.catch(() => undefined)
    await stop?.().catch(() => undefined)
  }

  #drop(uri: string, held: Held): void {
    if (this.#held.get(uri) === held) this.#held.delete(uri)
  }
}
