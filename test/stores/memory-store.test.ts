import type { ModelMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { ConfigError, StoreError } from '../../src/errors.js'
import type { ConversationStore } from '../../src/stores/conversation-store.js'
import { InMemoryConversationStore } from '../../src/stores/in-memory-conversation-store.js'
import { describeStoreConformance, sampleMessages } from './store-conformance.js'

describeStoreConformance({
  name: 'in memory',
  create: ({ ttlSeconds }) => ({
    store: new InMemoryConversationStore<ModelMessage>(ttlSeconds === undefined ? {} : { ttlSeconds }),
    close() {},
  }),
  shared: false,
})

function echoModel() {
  return new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text: 'ok' }],
      finishReason: { unified: 'stop', raw: undefined },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    }),
  })
}

describe('ask over a store', () => {
  it('appends a turn after one another process saved meanwhile, and returns the transcript as saved', async () => {
    const store = new InMemoryConversationStore<ModelMessage>()
    await store.save('c', { messages: sampleMessages('before') }, 0)
    // Another process saves its turn while this one's model call is running.
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        const current = await store.load('c')
        const other: ModelMessage[] = [
          { role: 'user', content: 'from the other process' },
          { role: 'assistant', content: 'other answer' },
        ]
        await store.save('c', { messages: [...(current?.messages ?? []), ...other] }, current?.version ?? 0)
        return (await echoModel().doGenerate({ prompt: [] } as never)) as never
      },
    })
    const result = await createClient({ model, store }).ask('mine', { id: 'c' })
    const expected = [
      ...sampleMessages('before'),
      { role: 'user', content: 'from the other process' },
      { role: 'assistant', content: 'other answer' },
      { role: 'user', content: 'mine' },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    ]
    expect((await store.load('c'))?.messages).toStrictEqual(expected)
    expect(result.messages).toStrictEqual(expected)
    // The model saw only what was stored when the turn began.
    expect(model.doGenerateCalls[0]?.prompt).toHaveLength(sampleMessages('before').length + 1)
  })

  it('rejects with a StoreError naming the operation when the store fails, the cause kept', async () => {
    const down = new Error('connect ECONNREFUSED 127.0.0.1:1 redis://:hunter2@127.0.0.1:1')
    const failing: ConversationStore<ModelMessage> = {
      load: () => Promise.reject(down),
      save: () => Promise.reject(down),
      delete: () => Promise.reject(down),
    }
    const model = echoModel()
    const error = await createClient({ model, store: failing })
      .ask('hi', { id: 'c' })
      .catch((caught: unknown) => caught)
    expect(StoreError.isInstance(error)).toBe(true)
    expect((error as StoreError).operation).toBe('load')
    expect((error as StoreError).cause).toBe(down)
    expect((error as StoreError).message).toBe(
      'The conversation store failed to load conversation "c" (see cause).',
    )
    expect(model.doGenerateCalls).toHaveLength(0)
  })

  it('rejects with a StoreError when the save fails after the run, nothing written', async () => {
    const inner = new InMemoryConversationStore<ModelMessage>()
    const store: ConversationStore<ModelMessage> = {
      load: (id) => inner.load(id),
      save: () => Promise.reject(new Error('connection lost')),
      delete: (id) => inner.delete(id),
    }
    const error = await createClient({ model: echoModel(), store })
      .ask('hi', { id: 'c' })
      .catch((caught: unknown) => caught)
    expect((error as StoreError).operation).toBe('save')
    expect(inner.load('c')).toBe(undefined)
  })

  it('gives up with a StoreError when every save loses, and says so', async () => {
    let saves = 0
    const store: ConversationStore<ModelMessage> = {
      load: () => ({ messages: [], version: 1 }),
      save: () => {
        saves++
        return false
      },
      delete: () => {},
    }
    const error = await createClient({ model: echoModel(), store })
      .ask('hi', { id: 'busy' })
      .catch((caught: unknown) => caught)
    expect(StoreError.isInstance(error)).toBe(true)
    expect((error as StoreError).message).toBe(
      'Conversation "busy" changed under each of 25 saves of this turn; nothing was written.',
    )
    expect(saves).toBe(25)
  })

  it('refuses a save that answers neither true nor false', async () => {
    const store = {
      load: () => undefined,
      save: () => undefined,
      delete: () => {},
    } as unknown as ConversationStore<ModelMessage>
    await expect(createClient({ model: echoModel(), store }).ask('hi', { id: 'c' })).rejects.toThrow(
      'answered neither true nor false',
    )
  })

  it('refuses a ttlSeconds that is not a whole number of seconds', () => {
    for (const ttlSeconds of [0, -1, 1.5, Number.NaN, '60']) {
      expect(() => new InMemoryConversationStore({ ttlSeconds: ttlSeconds as number })).toThrow(ConfigError)
    }
  })

  it('refuses the older get/save store with a message that says what changed', () => {
    const older = { get: () => undefined, save: () => {} }
    expect(() =>
      createClient({ model: echoModel(), store: older as unknown as ConversationStore<ModelMessage> }),
    ).toThrow(
      'A store with get(id) and save(id, messages), the form of the other toolnexus ports, goes through fromGetSaveStore(store)',
    )
  })
})
