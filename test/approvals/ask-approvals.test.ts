import type { ModelMessage } from 'ai'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { ApprovalResponse } from '../../src/contracts/run-types.js'
import { ApprovalError } from '../../src/errors.js'
import type { ClaimStore } from '../../src/shared/claim-store.js'
import type { ConversationStore } from '../../src/stores/conversation-store.js'
import { InMemoryConversationStore } from '../../src/stores/in-memory-conversation-store.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import type { ScriptedServer } from '../support/scripted-server.js'
import { sharedStores } from '../support/shared-stores.js'
import { approvalTools, call, clientFor, startApprovalModel } from './support.js'

const servers: ScriptedServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

/** Two instances (clients) over one store, as behind a load balancer; the model wants two deletions. */
async function twoInstances(store: ConversationStore<ModelMessage>) {
  const server = await startApprovalModel([
    call('c1', 'delete_file', { path: 'a.txt' }),
    call('c2', 'delete_file', { path: 'b.txt' }),
  ])
  servers.push(server)
  const { tools, ran } = approvalTools()
  const toolkit = await createToolkit({ tools })
  const secret = 'one-secret-for-every-instance'
  return {
    server,
    toolkit,
    ran,
    // Every built-in store is a claim store too: the same one claims direct resumes across instances.
    first: clientFor(server, {
      secret,
      store,
      claims: store as ConversationStore<ModelMessage> & ClaimStore,
    }),
    second: clientFor(server, {
      secret,
      store,
      claims: store as ConversationStore<ModelMessage> & ClaimStore,
    }),
  }
}

function describeAskResume(name: string, makeStore: () => ConversationStore<ModelMessage>) {
  describe(`ask resumes a suspended run kept in the store (${name})`, () => {
    it('suspends on one instance, answers in parts on another, refuses replays, saves one valid transcript', async () => {
      const store = makeStore()
      const { server, toolkit, ran, first, second } = await twoInstances(store)
      const id = `conversation-${Math.random().toString(36).slice(2)}`
      const asked = await first.ask('Delete both files', { id, toolkit })
      expect(asked.status).toBe('suspended')
      const [a, b] = (asked.pending ?? []).map((each) => each.approvalId) as [string, string]
      const stored = await store.load(id)
      expect(stored?.suspended).toBeDefined()
      // The stored transcript is valid history: the waiting calls are answered "not run".
      expect(stored?.messages.at(-1)).toMatchObject({ role: 'tool' })

      // Another instance answers one call; the run stays suspended with the other.
      const part = await second.ask(undefined, {
        id,
        toolkit,
        approvals: [{ approvalId: b, approved: true }],
      })
      expect(part.status).toBe('suspended')
      expect(part.pending?.map((each) => each.approvalId)).toStrictEqual([a])
      expect(ran).toStrictEqual(['delete_file b.txt'])

      // The answer already given, sent again, to either instance: refused, nothing runs.
      for (const client of [first, second]) {
        const replay = await client
          .ask(undefined, { id, toolkit, approvals: [{ approvalId: b, approved: true }] })
          .catch((error: unknown) => error)
        expect(ApprovalError.isInstance(replay) && replay.code).toBe('replayed-approval')
      }
      expect(ran).toStrictEqual(['delete_file b.txt'])

      const done = await first.ask(undefined, {
        id,
        toolkit,
        approvals: [{ approvalId: a, approved: false, reason: 'keep a' }],
      })
      expect(done.status).toBe('done')
      expect(ran).toStrictEqual(['delete_file b.txt'])
      expect(server.toolMessages(1)).toStrictEqual([
        {
          id: 'c1',
          content: 'The user declined this call to "delete_file"; it was not run. The user said: keep a',
        },
        { id: 'c2', content: 'deleted b.txt' },
      ])
      const final = await store.load(id)
      expect(final?.suspended).toBeUndefined()
      // One transcript: user, assistant with both calls, one tool message with both answers, the answer.
      expect(final?.messages.map((message) => message.role)).toStrictEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
      ])
      expect(final?.messages).toStrictEqual(done.messages)
      const noRun = await first
        .ask(undefined, { id, toolkit, approvals: [{ approvalId: a, approved: true }] })
        .catch((error: unknown) => error)
      expect(ApprovalError.isInstance(noRun)).toBe(true)
    })

    it('of two instances answering at once, exactly one runs the call', async () => {
      const store = makeStore()
      const { toolkit, ran, first, second } = await twoInstances(store)
      const id = `race-${Math.random().toString(36).slice(2)}`
      const asked = await first.ask('Delete both files', { id, toolkit })
      const approvals: ApprovalResponse[] = (asked.pending ?? []).map((each) => ({
        approvalId: each.approvalId,
        approved: true,
      }))
      const outcomes = await Promise.allSettled([
        first.ask(undefined, { id, toolkit, approvals }),
        second.ask(undefined, { id, toolkit, approvals }),
      ])
      expect(outcomes.map((outcome) => outcome.status).sort()).toStrictEqual(['fulfilled', 'rejected'])
      expect(ran.sort()).toStrictEqual(['delete_file a.txt', 'delete_file b.txt'])
    })

    it('a new prompt leaves the waiting calls unrun and the conversation goes on', async () => {
      const store = makeStore()
      const { server, toolkit, ran, first } = await twoInstances(store)
      const id = `moved-on-${Math.random().toString(36).slice(2)}`
      const asked = await first.ask('Delete both files', { id, toolkit })
      expect(asked.status).toBe('suspended')
      const later = await first.ask('Actually, do nothing.', { id, toolkit })
      expect(later.status).toBe('done')
      expect(ran).toStrictEqual([])
      expect(server.toolMessages(1).map((each) => each.content)).toStrictEqual([
        'Not run: this call waits for the user’s approval.',
        'Not run: this call waits for the user’s approval.',
      ])
      expect((await store.load(id))?.suspended).toBeUndefined()
      const late = await first
        .ask(undefined, {
          id,
          toolkit,
          approvals: [{ approvalId: asked.pending?.[0]?.approvalId as string, approved: true }],
        })
        .catch((error: unknown) => error)
      expect(ApprovalError.isInstance(late)).toBe(true)
      expect(ran).toStrictEqual([])
    })
  })
}

describeAskResume('in-memory store', () => new InMemoryConversationStore<ModelMessage>())

describe.each(sharedStores('the approval tests'))('with a real $name', (kind) => {
  const opened: Array<{ close(): Promise<void> }> = []
  afterAll(() => Promise.all(opened.map((store) => store.close())))
  if (!kind.available) return
  describeAskResume(`${kind.name} store`, () => {
    const store = kind.open()
    opened.push(store)
    return store
  })
})
