import type { ModelMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { ConfigError } from '../../src/errors.js'
import type { ConversationStore } from '../../src/stores/conversation-store.js'
import { fromGetSaveStore, type GetSaveStore } from '../../src/stores/from-get-save-store.js'
import { sampleMessages } from './store-conformance.js'

/** A store in the other ports' shape: a map of transcripts, copied in and out as JSON. */
function plainStore(options: { withDelete: boolean }) {
  const saved = new Map<string, string>()
  const store: GetSaveStore<ModelMessage> = {
    get: async (id) => {
      const text = saved.get(id)
      return text === undefined ? undefined : JSON.parse(text)
    },
    save: async (id, messages) => {
      saved.set(id, JSON.stringify(messages))
    },
    ...(options.withDelete ? { delete: async (id: string) => saved.delete(id) } : {}),
  }
  return { store, saved }
}

/** A model that answers with the number of user messages it was sent. */
function countingModel() {
  return new MockLanguageModelV3({
    doGenerate: async (call) => ({
      content: [{ type: 'text', text: `users ${call.prompt.filter((m) => m.role === 'user').length}` }],
      finishReason: { unified: 'stop', raw: undefined },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    }),
  })
}

describe('fromGetSaveStore', () => {
  it('lets ask keep a conversation in a get/save store', async () => {
    const { store, saved } = plainStore({ withDelete: true })
    const client = createClient({ model: countingModel(), store: fromGetSaveStore(store) })
    await client.ask('My name is Ada.', { id: 'user-1' })
    const second = await client.ask('What is my name?', { id: 'user-1' })
    expect(second.text).toBe('users 2')
    expect(JSON.parse(saved.get('user-1') ?? '[]')).toStrictEqual(second.messages)
  })

  it('refuses a save when the conversation changed since it was loaded; ask appends after it', async () => {
    const { store } = plainStore({ withDelete: true })
    const adapted = fromGetSaveStore(store)
    await adapted.save('c', { messages: sampleMessages('first') }, 0)
    const loaded = await adapted.load('c')
    await store.save('c', sampleMessages('other writer'))
    expect(await adapted.save('c', { messages: sampleMessages('stale') }, loaded?.version ?? 0)).toBe(false)
    expect(await store.get('c')).toStrictEqual(sampleMessages('other writer'))

    const result = await createClient({ model: countingModel(), store: adapted }).ask('next', { id: 'c' })
    expect(result.messages.slice(0, 4)).toStrictEqual(sampleMessages('other writer'))
    expect(await store.get('c')).toStrictEqual(result.messages)
  })

  it('has no compare-and-set: two saves at one version that read before either wrote both land', async () => {
    const { store } = plainStore({ withDelete: true })
    const adapted = fromGetSaveStore(store)
    const results = await Promise.all([
      adapted.save('race', { messages: sampleMessages('a') }, 0),
      adapted.save('race', { messages: sampleMessages('b') }, 0),
    ])
    expect(results).toStrictEqual([true, true])
    expect(await store.get('race')).toStrictEqual(sampleMessages('b'))
  })

  it('keeps a waiting run with its conversation in this process only', async () => {
    const { store } = plainStore({ withDelete: true })
    const adapted = fromGetSaveStore(store)
    await adapted.save('s', { messages: sampleMessages('s'), suspended: { run: 1 } }, 0)
    const loaded = await adapted.load('s')
    expect(loaded?.suspended).toStrictEqual({ run: 1 })
    expect((await fromGetSaveStore(store).load('s'))?.suspended).toBe(undefined)
    await adapted.save('s', { messages: sampleMessages('t') }, loaded?.version ?? 0)
    expect((await adapted.load('s'))?.suspended).toBe(undefined)
  })

  it.each([
    { withDelete: true, left: undefined },
    { withDelete: false, left: '[]' },
  ])(
    'forgets a deleted conversation (store delete: $withDelete); it starts again at version 0',
    async ({ withDelete, left }) => {
      const { store, saved } = plainStore({ withDelete })
      const adapted = fromGetSaveStore(store)
      await adapted.save('d', { messages: sampleMessages('d') }, 0)
      await adapted.delete('d')
      expect(saved.get('d')).toBe(left)
      expect(await adapted.load('d')).toBe(undefined)
      expect(await adapted.save('d', { messages: sampleMessages('again') }, 0)).toBe(true)
    },
  )

  it('is what createClient names when it is given a get/save store itself', () => {
    const { store } = plainStore({ withDelete: false })
    const given = store as unknown as ConversationStore<ModelMessage>
    expect(() => createClient({ model: countingModel(), store: given })).toThrow(ConfigError)
    expect(() => createClient({ model: countingModel(), store: given })).toThrow(
      'goes through fromGetSaveStore(store)',
    )
  })
})
