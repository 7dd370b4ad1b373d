import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server'
import { ConfigError } from '../errors.js'

/**
 * Where a gateway keeps the events it sent on 2025-era SSE streams, so a client whose stream closed
 * (the network dropped, or the server closed it to be polled) reconnects with `Last-Event-ID` and gets
 * what it missed. The MCP SDK's `EventStore`, with `getStreamIdForEventId` required: the gateway checks
 * whose stream an event is on before anything is replayed. Stream ids reach the store already bound to
 * their session, so one store can serve every session and every instance (a shared database).
 *
 * @example
 * const handler = createMcpHandler({ toolkit, eventStore: createMemoryEventStore({ maxEvents: 50_000 }) })
 */
export interface McpEventStore {
  /** Keeps `message` as the next event of `streamId`; resolves to its event id (unguessable, unique). */
  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string>
  /** The stream an event is on; `undefined` for an id the store does not know (or no longer keeps). */
  getStreamIdForEventId(eventId: string): Promise<string | undefined>
  /** Sends every event of the stream of `lastEventId` kept after it, in order; resolves to the stream id. */
  replayEventsAfter(
    lastEventId: string,
    options: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string>
}

/**
 * The bounds of `createMemoryEventStore`: what a client can make the server hold.
 *
 * @example
 * const options: MemoryEventStoreOptions = { maxEventsPerStream: 200, maxAgeMs: 60_000 }
 */
export interface MemoryEventStoreOptions {
  /** Events kept per stream; past it the stream's oldest goes. @default 1000 */
  maxEventsPerStream?: number
  /** Events kept over every stream; past it the oldest goes. @default 10000 */
  maxEvents?: number
  /** Characters of JSON kept over every stream; past it the oldest events go. @default 33554432 (32 Mi) */
  maxChars?: number
  /** Milliseconds an event is kept; an older one can no longer be resumed from. @default 300000 (5 minutes) */
  maxAgeMs?: number
}

interface Kept {
  streamId: string
  message: JSONRPCMessage
  at: number
  chars: number
}

/**
 * An `McpEventStore` in this process's memory, bounded by event count per stream and in all, by size
 * and by age (see `MemoryEventStoreOptions`): the oldest events go first, and a stream resumed from an
 * event that went is refused (the client starts over). Event ids are random UUIDs. The default of
 * `createMcpHandler`; for several instances behind one address, give them a store they share.
 *
 * @example
 * const eventStore = createMemoryEventStore({ maxEventsPerStream: 100 })
 */
export function createMemoryEventStore(options: MemoryEventStoreOptions = {}): McpEventStore {
  const limits = {
    maxEventsPerStream: options.maxEventsPerStream ?? 1000,
    maxEvents: options.maxEvents ?? 10_000,
    maxChars: options.maxChars ?? 32 * 1024 * 1024,
    maxAgeMs: options.maxAgeMs ?? 5 * 60_000,
  }
  for (const [field, value] of Object.entries(limits)) {
    if (!(typeof value === 'number' && value > 0)) {
      throw new ConfigError(`\`${field}\` must be a positive number; got ${String(value)}.`, { field })
    }
  }
  // In the order they were kept: the first is the oldest, of its stream too.
  const events = new Map<string, Kept>()
  const streams = new Map<string, string[]>()
  let chars = 0
  const dropOldestOf = (streamId: string): void => {
    const ids = streams.get(streamId)
    const id = ids?.shift()
    if (ids === undefined || id === undefined) return
    if (ids.length === 0) streams.delete(streamId)
    chars -= events.get(id)?.chars ?? 0
    events.delete(id)
  }
  const prune = (now: number): void => {
    for (const kept of events.values()) {
      const over = events.size > limits.maxEvents || chars > limits.maxChars
      if (!over && now - kept.at <= limits.maxAgeMs) return
      dropOldestOf(kept.streamId)
    }
  }
  return {
    storeEvent(streamId, message) {
      const id = crypto.randomUUID()
      const now = Date.now()
      const kept: Kept = { streamId, message, at: now, chars: JSON.stringify(message).length }
      events.set(id, kept)
      chars += kept.chars
      const ids = streams.get(streamId) ?? []
      ids.push(id)
      streams.set(streamId, ids)
      if (ids.length > limits.maxEventsPerStream) dropOldestOf(streamId)
      prune(now)
      return Promise.resolve(id)
    },
    getStreamIdForEventId(eventId) {
      prune(Date.now())
      return Promise.resolve(events.get(eventId)?.streamId)
    },
    async replayEventsAfter(lastEventId, { send }) {
      prune(Date.now())
      const kept = events.get(lastEventId)
      if (kept === undefined) throw new Error('Unknown event id: the stream cannot be resumed.')
      const ids = streams.get(kept.streamId) ?? []
      for (const id of ids.slice(ids.indexOf(lastEventId) + 1)) {
        const event = events.get(id)
        // A priming event (no message, only its id) carries nothing to replay.
        if (event !== undefined && 'jsonrpc' in event.message) await send(id, event.message)
      }
      return kept.streamId
    },
  }
}

/**
 * The view of `store` one 2025 session's transport gets: its stream ids are bound to `sessionId` (the
 * SDK names every session's standalone stream alike), and an event id of another session's stream is
 * unknown to it, so a `Last-Event-ID` from someone else's stream replays nothing.
 *
 * @example
 * new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => id, eventStore: sessionEventStore(store, id) })
 */
export function sessionEventStore(store: McpEventStore, sessionId: string): EventStore {
  const prefix = `${sessionId}/`
  const ownStream = async (eventId: string): Promise<string | undefined> => {
    const streamId = await store.getStreamIdForEventId(eventId)
    return streamId?.startsWith(prefix) === true ? streamId.slice(prefix.length) : undefined
  }
  return {
    storeEvent: (streamId, message) => store.storeEvent(prefix + streamId, message),
    getStreamIdForEventId: ownStream,
    async replayEventsAfter(lastEventId, options) {
      if ((await ownStream(lastEventId)) === undefined) {
        throw new Error('Unknown event id: the stream cannot be resumed.')
      }
      const streamId = await store.replayEventsAfter(lastEventId, options)
      return streamId.slice(prefix.length)
    },
  }
}
