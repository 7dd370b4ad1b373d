// The one behaviour every ConversationStore must have, as a suite that takes a store factory. Run by
// memory-store.test.ts, redis-store.test.ts and postgres-store.test.ts.
import { randomUUID } from 'node:crypto'
import type { ModelMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterAll, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import type { ClaimStore } from '../../src/shared/claim-store.js'
import type { ConversationStore } from '../../src/stores/conversation-store.js'

/** A store the suite made, and how to let go of it. */
export interface StoreUnderTest {
  store: ConversationStore<ModelMessage>
  close(): Promise<void> | void
}

/** What the suite takes. */
export interface ConformanceOptions {
  /** The store's name in the suite's title. */
  name: string
  /** A fresh store on the shared server; `ttlSeconds` as the store takes it. */
  create(options: { ttlSeconds?: number }): Promise<StoreUnderTest> | StoreUnderTest
  /** Stores made by `create` share one database (true for the database stores, not for memory). */
  shared: boolean
}

/** A transcript with the shapes real ones carry: tool calls, tool results, provider metadata, unicode. */
export function sampleMessages(label: string): ModelMessage[] {
  return [
    { role: 'user', content: `${label}: weather in Zürich? 🌦` },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Looking it up.' },
        {
          type: 'tool-call',
          toolCallId: 'call_1',
          toolName: 'get_weather',
          input: { city: 'Zürich', days: 3, units: null, nested: { deep: [1, 2.5, -0.125, 'x'] } },
          providerOptions: { google: { thoughtSignature: 'c2lnbmF0dXJlLQ==' } },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call_1',
          toolName: 'get_weather',
          output: { type: 'text', value: '{"temperature":"12°C","quote":"\\"sunny\\"\\n"}' },
        },
      ],
    },
    { role: 'assistant', content: 'It is 12 °C and sunny.' },
  ]
}

function textModel() {
  return new MockLanguageModelV3({
    doGenerate: async (call) => {
      const users = call.prompt.filter((message) => message.role === 'user').length
      return {
        content: [{ type: 'text', text: `answer ${users}` }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      }
    },
  })
}

/**
 * Registers the conformance suite for one kind of store.
 *
 * @example
 * describeStoreConformance({ name: 'memory', create: () => ({ store: new InMemoryConversationStore(), close() {} }) })
 */
export function describeStoreConformance(options: ConformanceOptions): void {
  describe(`ConversationStore conformance: ${options.name}`, () => {
    const opened: StoreUnderTest[] = []
    const open = async (settings: { ttlSeconds?: number } = {}) => {
      const made = await options.create(settings)
      opened.push(made)
      return made.store
    }
    // Every test uses ids of its own, so stores on one shared server never see each other's data.
    const newId = (label: string) => `${label}:${randomUUID()}`

    afterAll(async () => {
      for (const made of opened) await made.close()
    })

    it('has no conversation for an id never saved', async () => {
      const store = await open()
      expect(await store.load(newId('never'))).toBe(undefined)
    })

    it('saves a new conversation at version 0 and loads it back exactly, with a version', async () => {
      const store = await open()
      const id = newId('new')
      const messages = sampleMessages('one')
      expect(await store.save(id, { messages }, 0)).toBe(true)
      const loaded = await store.load(id)
      expect(loaded?.messages).toStrictEqual(messages)
      expect(loaded?.suspended).toBe(undefined)
      expect(Number.isInteger(loaded?.version) && (loaded?.version ?? 0) > 0).toBe(true)
    })

    it('keeps bytes and URLs of file parts as bytes and URLs', async () => {
      const store = await open()
      const id = newId('bytes')
      const bytes = new Uint8Array(33_000).map((_, index) => (index * 7) % 256)
      const sent = [
        { type: 'text', text: 'what is in these?' },
        { type: 'image', image: bytes, mediaType: 'image/png' },
        { type: 'file', data: new URL('https://example.com/report.pdf'), mediaType: 'application/pdf' },
      ] as const
      const messages: ModelMessage[] = [{ role: 'user', content: [...sent] }]
      await store.save(id, { messages }, 0)
      const content = (await store.load(id))?.messages[0]?.content
      const parts = Array.isArray(content) ? content : []
      const image = parts[1]?.type === 'image' ? parts[1].image : undefined
      // Compared as one buffer: an element-by-element deep equal of 33,000 bytes is slow.
      expect(image instanceof Uint8Array && Buffer.from(image).equals(Buffer.from(bytes))).toBe(true)
      expect(parts[2]?.type === 'file' && parts[2].data instanceof URL).toBe(true)
      expect(parts.map((part) => (part.type === 'image' ? { ...part, image: 'bytes' } : part))).toStrictEqual(
        sent.map((part) => (part.type === 'image' ? { ...part, image: 'bytes' } : part)),
      )
    })

    it('keeps what it stored when the caller changes what it passed or got back', async () => {
      const store = await open()
      const id = newId('copy')
      const messages = sampleMessages('copy')
      await store.save(id, { messages }, 0)
      messages.push({ role: 'user', content: 'changed after saving' })
      const loaded = await store.load(id)
      loaded?.messages.pop()
      expect((await store.load(id))?.messages).toStrictEqual(sampleMessages('copy'))
    })

    it('writes only at the expected version: a stale or a second new save changes nothing', async () => {
      const store = await open()
      const id = newId('cas')
      await store.save(id, { messages: sampleMessages('first') }, 0)
      const first = await store.load(id)
      expect(await store.save(id, { messages: sampleMessages('again new') }, 0)).toBe(false)
      const next = [...(first?.messages ?? []), { role: 'user', content: 'second' } as const]
      expect(await store.save(id, { messages: next }, first?.version ?? -1)).toBe(true)
      const second = await store.load(id)
      expect(second?.messages).toStrictEqual(next)
      expect(second?.version).not.toBe(first?.version)
      expect(await store.save(id, { messages: sampleMessages('stale') }, first?.version ?? -1)).toBe(false)
      expect(await store.save(id, { messages: sampleMessages('future') }, (second?.version ?? 0) + 1)).toBe(
        false,
      )
      expect(await store.load(id)).toStrictEqual(second)
    })

    it('lets exactly one of many saves at one version win', async () => {
      const store = await open()
      const id = newId('race')
      await store.save(id, { messages: sampleMessages('base') }, 0)
      const base = await store.load(id)
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          store.save(id, { messages: sampleMessages(`writer ${index}`) }, base?.version ?? -1),
        ),
      )
      expect(results.filter((saved) => saved)).toHaveLength(1)
      const winner = results.indexOf(true)
      expect((await store.load(id))?.messages).toStrictEqual(sampleMessages(`writer ${winner}`))
    })

    it('lets exactly one of many first saves of a new id win', async () => {
      const store = await open()
      const id = newId('race-new')
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          store.save(id, { messages: sampleMessages(`w${index}`) }, 0),
        ),
      )
      expect(results.filter((saved) => saved)).toHaveLength(1)
    })

    it('keeps a suspended run with its conversation, and drops it when a save leaves it out', async () => {
      const store = await open()
      const id = newId('suspended')
      const suspended = {
        version: 1,
        pending: [{ approvalId: 'ap_1', toolCallId: 'call_1', toolName: 'refund', args: { amount: 12.5 } }],
        signature: 'base64url-signature_-',
        nested: { empty: {}, list: [], flag: false, none: null },
      }
      await store.save(id, { messages: sampleMessages('s'), suspended }, 0)
      const loaded = await store.load(id)
      expect(loaded?.suspended).toStrictEqual(suspended)
      expect(JSON.stringify(loaded?.suspended)).toBe(JSON.stringify(suspended))
      await store.save(id, { messages: sampleMessages('s2') }, loaded?.version ?? -1)
      expect((await store.load(id))?.suspended).toBe(undefined)
    })

    it('keeps ids apart, whatever characters they have', async () => {
      const store = await open()
      const suffix = randomUUID()
      const ids = ['a', 'A', 'a:b', 'a b', 'ü🌦', 'quote\'"', 'x'.repeat(1000), '%', '*', '?'].map(
        (id) => `${id}-${suffix}`,
      )
      for (const [index, id] of ids.entries()) {
        await store.save(id, { messages: sampleMessages(`id ${index}`) }, 0)
      }
      for (const [index, id] of ids.entries()) {
        expect((await store.load(id))?.messages).toStrictEqual(sampleMessages(`id ${index}`))
      }
    })

    it.runIf(options.shared)('shares conversations between stores on one database', async () => {
      const [one, two] = [await open(), await open()]
      const id = newId('shared')
      await one.save(id, { messages: sampleMessages('from one') }, 0)
      const seen = await two.load(id)
      expect(seen?.messages).toStrictEqual(sampleMessages('from one'))
      expect(await two.save(id, { messages: sampleMessages('from two') }, seen?.version ?? -1)).toBe(true)
      expect((await one.load(id))?.messages).toStrictEqual(sampleMessages('from two'))
    })

    it('forgets a deleted conversation; it can start again at version 0', async () => {
      const store = await open()
      const id = newId('delete')
      await store.save(id, { messages: sampleMessages('old') }, 0)
      await store.delete(id)
      expect(await store.load(id)).toBe(undefined)
      await store.delete(id)
      await store.delete(newId('never-saved'))
      expect(await store.save(id, { messages: sampleMessages('new') }, 0)).toBe(true)
      expect((await store.load(id))?.messages).toStrictEqual(sampleMessages('new'))
    })

    it('forgets a conversation ttlSeconds after its last save, and can start it again; keeps one without ttlSeconds', async () => {
      const [short, kept] = [await open({ ttlSeconds: 1 }), await open()]
      const [shortId, keptId] = [newId('ttl'), newId('no-ttl')]
      await short.save(shortId, { messages: sampleMessages('short-lived') }, 0)
      await kept.save(keptId, { messages: sampleMessages('kept') }, 0)
      expect((await short.load(shortId))?.messages).toStrictEqual(sampleMessages('short-lived'))
      await new Promise((resolve) => setTimeout(resolve, 1_200))
      expect(await short.load(shortId)).toBe(undefined)
      expect((await kept.load(keptId))?.messages).toStrictEqual(sampleMessages('kept'))
      expect(await short.save(shortId, { messages: sampleMessages('again') }, 0)).toBe(true)
      expect((await short.load(shortId))?.messages).toStrictEqual(sampleMessages('again'))
    })

    it('claims a key for the first caller only, of many at once; again once its ttl has passed', async () => {
      const store = (await open()) as ConversationStore<ModelMessage> & ClaimStore
      const key = newId('claim')
      const results = await Promise.all(Array.from({ length: 10 }, () => store.claim(key, 1)))
      expect(results.filter((claimed) => claimed === true)).toHaveLength(1)
      expect(await store.claim(key, 1)).toBe(false)
      // A claim is its own key: a conversation of the same id is untouched, and other keys are free.
      expect(await store.load(key)).toBe(undefined)
      expect(await store.claim(newId('claim-other'), 60)).toBe(true)
      await new Promise((resolve) => setTimeout(resolve, 1_200))
      expect(await store.claim(key, 60)).toBe(true)
      expect(await store.claim(key, 60)).toBe(false)
    })

    it.each([
      ['', 60],
      ['key', 0],
      ['key', 1.5],
    ])('refuses a claim of key %j for %j seconds', async (key, ttlSeconds) => {
      const store = (await open()) as ConversationStore<ModelMessage> & ClaimStore
      await expect(async () => store.claim(key, ttlSeconds)).rejects.toThrow('claim(key, ttlSeconds)')
    })

    it('under ask: turns of two clients on one id at the same time are all kept', async () => {
      // Two clients are two processes as far as `ask` can tell: each has its own per-id queue. Over a
      // database, each has its own store (its own connection) too.
      const first = await open()
      const stores = options.shared ? [first, await open()] : [first, first]
      const clients = stores.map((store) => createClient({ model: textModel(), store }))
      const id = newId('ask')
      const prompts = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5']
      await Promise.all(
        prompts.map((prompt, index) => clients[index % 2]?.ask(prompt, { id }) ?? Promise.resolve()),
      )
      const stored = (await stores[0]?.load(id))?.messages ?? []
      expect(stored).toHaveLength(prompts.length * 2)
      const users = stored.filter((message) => message.role === 'user').map((message) => message.content)
      expect([...users].sort()).toStrictEqual(prompts)
      // Each answer follows its own question.
      for (let index = 0; index < stored.length; index += 2) {
        expect(stored[index]?.role).toBe('user')
        expect(stored[index + 1]?.role).toBe('assistant')
      }
    })
  })
}
