// What a browser can make the chat route hold: a stored conversation is capped in bytes and messages (a
// request past the cap is refused before anything is stored), a body has a read deadline, and a data:
// URL's size is checked before it is decoded.
import type { ModelMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { ConfigError } from '../../src/errors.js'
import { createChatHandler } from '../../src/next/index.js'
import { InMemoryConversationStore } from '../../src/stores/in-memory-conversation-store.js'
import { step, textParts } from './mock-model-steps.js'
import { userMessage } from './ui-stream.js'

/** A model that answers every call with "ok", counting the calls. */
function countingModel(): { model: MockLanguageModelV3; calls: () => number } {
  let calls = 0
  const model = new MockLanguageModelV3({
    doStream: async () => {
      calls++
      return step(textParts(`t${calls}`, 'ok'), 'stop')
    },
  })
  return { model, calls: () => calls }
}

function post(body: unknown): Request {
  return new Request('http://localhost/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

const ask = (id: string, text: string) =>
  post({ id, messages: [userMessage(`u-${text.length}-${Math.random()}`, text)], trigger: 'submit-message' })

describe('store mode caps a conversation', () => {
  it('a question that would take the conversation past conversationBytes gets 413 and nothing is stored', async () => {
    const { model, calls } = countingModel()
    const store = new InMemoryConversationStore<ModelMessage>()
    const handler = createChatHandler({
      client: createClient({ model }),
      store,
      limits: { conversationBytes: 50_000 },
    })

    const first = await handler(ask('chat-1', 'a'.repeat(30_000)))
    expect(first.status).toBe(200)
    await first.text()
    const before = await store.load('chat-1')

    const second = await handler(ask('chat-1', 'b'.repeat(30_000)))

    expect(second.status).toBe(413)
    expect(await second.json()).toStrictEqual({
      error:
        'The conversation would hold more than 50,000 bytes (limits.conversationBytes). Start a new conversation.',
    })
    expect(await store.load('chat-1')).toStrictEqual(before)
    expect(calls()).toBe(1)
  })

  it('a question past conversationMessages gets 413; the stored messages stay as they were', async () => {
    const { model } = countingModel()
    const store = new InMemoryConversationStore<ModelMessage>()
    const handler = createChatHandler({
      client: createClient({ model }),
      store,
      limits: { conversationMessages: 4 },
    })
    const statuses: number[] = []
    for (const text of ['one', 'two', 'three']) {
      const response = await handler(ask('chat-2', text))
      statuses.push(response.status)
      await response.text()
    }
    // Question and answer per turn: the third question would be the fifth message.
    expect(statuses).toStrictEqual([200, 200, 413])
    expect((await store.load('chat-2'))?.messages).toHaveLength(4)
  })

  it('twelve large requests into one conversation store no more than the cap, failed runs included', async () => {
    let calls = 0
    const model = new MockLanguageModelV3({
      doStream: async () => {
        calls++
        throw new Error('provider down')
      },
    })
    const store = new InMemoryConversationStore<ModelMessage>()
    const handler = createChatHandler({
      client: createClient({ model, retries: 0 }),
      store,
      limits: { conversationBytes: 1_000_000 },
    })
    const statuses: number[] = []
    for (let index = 0; index < 12; index++) {
      const response = await handler(ask('chat-3', String(index).repeat(300_000)))
      statuses.push(response.status)
      await response.text()
    }
    const stored = JSON.stringify((await store.load('chat-3'))?.messages)
    expect(stored.length).toBeLessThan(1_000_000)
    expect(statuses.filter((status) => status === 413)).toHaveLength(9)
    expect(calls).toBeGreaterThan(0)
  })
})

describe('request bodies are bounded in time and size', () => {
  it('a body that never finishes gets 408 after bodyTimeoutMs', async () => {
    const { model, calls } = countingModel()
    const handler = createChatHandler({ client: createClient({ model }), limits: { bodyTimeoutMs: 300 } })
    let cancelled = false
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"id":"slow","messages":['))
      },
      cancel() {
        cancelled = true
      },
    })
    const request = new Request('http://localhost/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit)

    const response = await handler(request)

    expect(response.status).toBe(408)
    expect(await response.json()).toStrictEqual({
      error: 'The request body did not arrive within 300 ms (limits.bodyTimeoutMs).',
    })
    expect([cancelled, calls()]).toStrictEqual([true, 0])
  })

  it.each([
    ['base64', (size: number) => `data:image/png;base64,${'A'.repeat(Math.ceil((size * 4) / 3))}`],
    ['%-escaped text', (size: number) => `data:text/plain,${'x'.repeat(size)}`],
  ])('a %s data: URL over fileBytes gets 413 before it is decoded', async (_kind, dataUrl) => {
    const { model, calls } = countingModel()
    const handler = createChatHandler({
      client: createClient({ model }),
      limits: { bodyBytes: 20_000_000, fileBytes: 1_000_000 },
    })
    const message = {
      id: 'u1',
      role: 'user',
      parts: [
        { type: 'text', text: 'What is this?' },
        { type: 'file', mediaType: 'image/png', url: dataUrl(3_000_000) },
      ],
    }

    const response = await handler(post({ id: 'c', messages: [message], trigger: 'submit-message' }))

    expect(response.status).toBe(413)
    expect(await response.json()).toStrictEqual({
      error:
        'messages[0].parts[1] is a file of about 3,000,000 bytes, more than the limit of 1,000,000 (limits.fileBytes).',
    })
    expect(calls()).toBe(0)
  })

  it.each([
    ['bodyTimeoutMs', 0],
    ['fileBytes', 1.5],
    ['conversationBytes', -1],
    ['conversationMessages', Number.NaN],
  ])('refuses limits.%s = %s', (key, value) => {
    const { model } = countingModel()
    expect(() => createChatHandler({ client: createClient({ model }), limits: { [key]: value } })).toThrow(
      ConfigError,
    )
  })
})
