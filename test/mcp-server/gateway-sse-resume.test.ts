// Resumable SSE streams on the gateway's 2025-era sessions: a 2025-11-25 call's stream opens with an
// event id and a `retry`, the handler closes it while the call runs (closeCallStreamsAfterMs), and the
// client reconnects with Last-Event-ID to get the answer; the v1 SDK client does so by itself. A
// Last-Event-ID of another session replays nothing. The default event store is bounded.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpHandler } from '../../src/mcp-server/create-mcp-handler.js'
import { createMemoryEventStore, sessionEventStore } from '../../src/mcp-server/event-store.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { serveFetch } from './serve-fetch.js'

const closers: Array<() => Promise<unknown>> = []

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {})
})

/** A gateway whose `slow` tool answers once `release()` is called; `resumes` counts Last-Event-ID GETs. */
async function gateway(): Promise<{ url: string; release: () => void; resumes: () => number }> {
  let release = (): void => {}
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  const toolkit = await createToolkit({
    tools: [
      defineTool({
        name: 'slow',
        description: 'Answers when the test lets it.',
        execute: async () => {
          await gate
          return 'slow answer'
        },
      }),
    ],
  })
  closers.push(() => toolkit.close())
  const handler = createMcpHandler({ toolkit, closeCallStreamsAfterMs: 50, sseRetryMs: 100 })
  let resumes = 0
  const server = await serveFetch((request) => {
    if (request.method === 'GET' && request.headers.has('last-event-id')) resumes++
    return handler(request)
  })
  closers.push(() => server.close())
  return { url: `${server.url}/mcp`, release, resumes: () => resumes }
}

interface SseEvent {
  id?: string
  retry?: string
  data: string
}

/** The events of an SSE body, read to its end. */
async function eventsOf(response: Response): Promise<SseEvent[]> {
  const text = await response.text()
  return text
    .split(/\n\n/)
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const event: SseEvent = { data: '' }
      for (const line of block.split('\n')) {
        const [field, ...rest] = line.split(':')
        const value = rest.join(':').replace(/^ /, '')
        if (field === 'id') event.id = value
        if (field === 'retry') event.retry = value
        if (field === 'data') event.data += value
      }
      return event
    })
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

/** Opens a 2025-11-25 session on the wire; its id. */
async function openSession(url: string): Promise<string> {
  const initialize = await fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'wire', version: '1' } },
    }),
  })
  const session = initialize.headers.get('mcp-session-id')
  await initialize.text()
  if (session === null) throw new Error(`no session: ${initialize.status}`)
  const sessionHeaders = { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }
  const initialized = await fetch(url, {
    method: 'POST',
    headers: sessionHeaders,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  })
  await initialized.text()
  return session
}

function resume(url: string, session: string, lastEventId: string): Promise<Response> {
  return fetch(url, {
    headers: {
      accept: 'text/event-stream',
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
      'last-event-id': lastEventId,
    },
  })
}

describe('resumable SSE streams', () => {
  it("closes a running call's stream, resumes it with Last-Event-ID, and never for another session", async () => {
    const { url, release } = await gateway()
    const alice = await openSession(url)
    const call = await fetch(url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': alice, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow' } }),
    })
    expect(call.headers.get('content-type')).toContain('text/event-stream')
    // The stream ends while the call still waits: only its priming event came, with an id and a retry.
    const [priming, ...rest] = await eventsOf(call)
    expect(rest).toEqual([])
    expect(priming).toMatchObject({ retry: '100', data: '' })
    const lastEventId = priming?.id ?? ''
    expect(lastEventId).not.toBe('')
    release()
    const bob = await openSession(url)
    const foreign = await resume(url, bob, lastEventId)
    expect(foreign.status).toBe(400)
    expect(await foreign.text()).not.toContain('slow answer')
    const resumed = await resume(url, alice, lastEventId)
    expect(resumed.status).toBe(200)
    const answers = (await eventsOf(resumed)).map(
      (event) => JSON.parse(event.data) as Record<string, unknown>,
    )
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'slow answer' }] } },
    ])
  }, 30_000)

  it('lets the v1 SDK client get the answer of a call whose stream was closed', async () => {
    const { url, release, resumes } = await gateway()
    const client = new Client({ name: 'resume-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(url)))
    closers.push(() => client.close())
    const result = client.callTool({ name: 'slow', arguments: {} })
    // The client came back with Last-Event-ID: only then may the call answer.
    while (resumes() === 0) await new Promise((resolve) => setTimeout(resolve, 20))
    release()
    expect(await result).toMatchObject({ content: [{ type: 'text', text: 'slow answer' }] })
  }, 30_000)
})

describe('createMemoryEventStore', () => {
  const message = (n: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { n } })
  const replayed = async (store: ReturnType<typeof createMemoryEventStore>, after: string) => {
    const sent: unknown[] = []
    await store.replayEventsAfter(after, {
      send: async (_id, event) => {
        sent.push(event)
      },
    })
    return sent
  }

  it('keeps at most maxEventsPerStream events of a stream, the newest', async () => {
    const store = createMemoryEventStore({ maxEventsPerStream: 2 })
    const first = await store.storeEvent('s', message(1))
    const second = await store.storeEvent('s', message(2))
    await store.storeEvent('s', message(3))
    expect(await store.getStreamIdForEventId(first)).toBeUndefined()
    expect(await replayed(store, second)).toEqual([message(3)])
  })

  it('keeps at most maxEvents over every stream, and at most maxChars of them', async () => {
    const counted = createMemoryEventStore({ maxEvents: 2 })
    const oldest = await counted.storeEvent('a', message(1))
    await counted.storeEvent('b', message(2))
    await counted.storeEvent('c', message(3))
    expect(await counted.getStreamIdForEventId(oldest)).toBeUndefined()
    const sized = createMemoryEventStore({ maxChars: JSON.stringify(message(1)).length * 2 })
    const big = await sized.storeEvent('a', message(1))
    const kept = await sized.storeEvent('a', message(2))
    await sized.storeEvent('a', message(3))
    expect(await sized.getStreamIdForEventId(big)).toBeUndefined()
    expect(await sized.getStreamIdForEventId(kept)).toBe('a')
  })

  it('forgets events older than maxAgeMs', async () => {
    const store = createMemoryEventStore({ maxAgeMs: 1 })
    const id = await store.storeEvent('s', message(1))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await store.getStreamIdForEventId(id)).toBeUndefined()
  })

  it('replays only the stream of the event, after it, without priming events', async () => {
    const store = createMemoryEventStore()
    const priming = await store.storeEvent('s', {} as never)
    await store.storeEvent('other', message(9))
    await store.storeEvent('s', message(1))
    await store.storeEvent('s', {} as never)
    await store.storeEvent('s', message(2))
    expect(await replayed(store, priming)).toEqual([message(1), message(2)])
  })

  it("hides another session's streams from a session's view of a shared store", async () => {
    const store = createMemoryEventStore()
    const alice = sessionEventStore(store, 'alice')
    const bob = sessionEventStore(store, 'bob')
    const id = await alice.storeEvent('_GET_stream', message(1))
    await alice.storeEvent('_GET_stream', message(2))
    expect(await alice.getStreamIdForEventId?.(id)).toBe('_GET_stream')
    expect(await bob.getStreamIdForEventId?.(id)).toBeUndefined()
    const sent: unknown[] = []
    const send = async (_id: string, event: unknown) => {
      sent.push(event)
    }
    await expect(bob.replayEventsAfter(id, { send })).rejects.toThrow(/Unknown event id/)
    expect(sent).toEqual([])
    expect(await alice.replayEventsAfter(id, { send })).toBe('_GET_stream')
    expect(sent).toEqual([message(2)])
  })
})
