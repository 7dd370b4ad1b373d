// One model step asks for two calls: one that waits for a person's approval, and one that its MCP server
// runs as a task past `taskWaitMs`. The stream shows both (the approval request, and the task's
// `data-toolnexus-task` part), the run is kept suspended, and the approval answer and the task settling
// each resume it, in either order: each tool runs exactly once, and the model is called again only when
// both are answered, with both results.
import type { ModelMessage, UIMessage } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { createChatHandler } from '../../src/next/create-chat-handler.js'
import { InMemoryConversationStore } from '../../src/stores/in-memory-conversation-store.js'
import {
  answer,
  CHAT_SECRET,
  postChat,
  send,
  taskStatuses,
  toolParts,
  toolStates,
} from '../approvals/chat-support.js'
import { approvalTools, call, clientFor, startApprovalModel } from '../approvals/support.js'
import { type Closers, startTaskServer, toolkitFor } from '../approvals/task-server.js'

const closers: Closers = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined)
})

const question: UIMessage = {
  id: 'u1',
  role: 'user',
  parts: [{ type: 'text', text: 'Delete a.txt and build the July report' }],
}

async function setup(mode: 'store' | 'signed') {
  const mcp = await startTaskServer(closers)
  const model = await startApprovalModel([
    call('c1', 'delete_file', { path: 'a.txt' }),
    call('c2', 'srv_build', { month: 'July' }),
  ])
  closers.push(() => model.close())
  const { tools, ran } = approvalTools()
  const toolkit = await toolkitFor(closers, mcp.url, { tools })
  const client = clientFor(model)
  const store = new InMemoryConversationStore<ModelMessage>()
  const handler =
    mode === 'store'
      ? createChatHandler({ client, toolkit, store })
      : createChatHandler({ client, toolkit, secret: CHAT_SECRET, claims: new InMemoryConversationStore() })
  const count = (method: string) => mcp.methods.filter((each) => each === method).length
  const suspended = async () => (mode === 'store' ? (await store.load('chat-1'))?.suspended : 'signed')
  return { ...mcp, model, handler, ran, count, store, suspended }
}

/**
 * The turn that answered both calls: both tool parts done, the model called a second time with both
 * results, and its answer streamed.
 */
function expectBothAnswered(message: UIMessage, model: Awaited<ReturnType<typeof setup>>['model']): void {
  expect(toolStates(message)).toStrictEqual([
    ['c1', 'output-available'],
    ['c2', 'output-available'],
  ])
  expect(message.parts.at(-1)).toMatchObject({ type: 'text', text: 'got deleted a.txt | Report for July.' })
  expect(model.requests).toHaveLength(2)
  expect(model.toolMessages(1)).toStrictEqual([
    { id: 'c1', content: 'deleted a.txt' },
    { id: 'c2', content: 'Report for July.' },
  ])
}

describe.each(['store', 'signed'] as const)(
  'a chat turn with an approval and an MCP task (%s mode)',
  (mode) => {
    async function firstTurn(mode: 'store' | 'signed') {
      const context = await setup(mode)
      const first = await send(context.handler, [question])
      expect(toolStates(first)).toStrictEqual([
        ['c1', 'approval-requested'],
        ['c2', 'input-available'],
      ])
      expect(taskStatuses(first)).toStrictEqual([['c2', 'working']])
      expect(JSON.stringify(first.parts)).not.toMatch(/Still running/)
      expect(await context.suspended()).toBeDefined()
      expect(context.ran).toStrictEqual([])
      expect(context.model.requests).toHaveLength(1)
      return { ...context, first }
    }

    it('approval first, then the task: the model is called once both are answered', async () => {
      const { handler, model, gate, ran, count, suspended, first } = await firstTurn(mode)

      // Approved while the task works: the approved call runs, the run stays suspended on the task.
      const second = await send(handler, [question, answer(first, { c1: { approved: true } })])
      expect(ran).toStrictEqual(['delete_file a.txt'])
      expect(toolStates(second)).toStrictEqual([
        ['c1', 'output-available'],
        ['c2', 'input-available'],
      ])
      expect(toolParts(second)[0]?.output).toBe('deleted a.txt')
      expect(taskStatuses(second)).toStrictEqual([['c2', 'working']])
      expect(model.requests).toHaveLength(1)
      expect(await suspended()).toBeDefined()

      // The task settles; checking again fetches it, and the model reads both results.
      gate.complete()
      const third = await send(handler, [question, second])
      expectBothAnswered(third, model)
      expect(taskStatuses(third)).toStrictEqual([['c2', 'completed']])
      expect(ran).toStrictEqual(['delete_file a.txt'])
      expect(gate.started).toStrictEqual(['July'])
      expect(count('tools/call')).toBe(1)
      if (mode === 'store') expect(await suspended()).toBeUndefined()

      // Either request sent again runs nothing again and calls no model.
      for (const replayed of [answer(first, { c1: { approved: true } }), second]) {
        const replay = await postChat(handler, [question, replayed])
        if (mode === 'store') expect(replay.status).toBe(409)
        await replay.text()
      }
      expect(ran).toStrictEqual(['delete_file a.txt'])
      expect(model.requests).toHaveLength(2)
      expect(count('tools/call')).toBe(1)

      // The conversation goes on from the resumed transcript: both real results, not the pending text.
      const followUp: UIMessage = { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Thanks' }] }
      await send(handler, [question, third, followUp])
      expect(model.toolMessages(2)).toStrictEqual([
        { id: 'c1', content: 'deleted a.txt' },
        { id: 'c2', content: 'Report for July.' },
      ])
    }, 120_000)

    it('the task first, then the approval: the model is called once both are answered', async () => {
      const { handler, model, gate, ran, count, suspended, first } = await firstTurn(mode)

      // The task settles; checking again (no approval answered yet) takes its result and keeps the run
      // waiting for the person.
      gate.complete()
      const second = await send(handler, [question, first])
      expect(toolStates(second)).toStrictEqual([
        ['c1', 'approval-requested'],
        ['c2', 'output-available'],
      ])
      expect(toolParts(second)[1]?.output).toBe('Report for July.')
      expect(taskStatuses(second)).toStrictEqual([['c2', 'completed']])
      expect(ran).toStrictEqual([])
      expect(model.requests).toHaveLength(1)
      expect(await suspended()).toBeDefined()
      const fetched = count('tasks/get')

      // Approved: the approved call runs, the task is not asked again, and the model reads both results.
      const third = await send(handler, [question, answer(second, { c1: { approved: true } })])
      expectBothAnswered(third, model)
      expect(ran).toStrictEqual(['delete_file a.txt'])
      expect(count('tasks/get')).toBe(fetched)
      expect(count('tools/call')).toBe(1)
      if (mode === 'store') expect(await suspended()).toBeUndefined()
    }, 120_000)

    it('both at once: the approval answer also fetches the settled task', async () => {
      const { handler, model, gate, ran, count, first } = await firstTurn(mode)
      gate.complete()
      const second = await send(handler, [question, answer(first, { c1: { approved: true } })])
      expectBothAnswered(second, model)
      expect(taskStatuses(second)).toStrictEqual([['c2', 'completed']])
      expect(ran).toStrictEqual(['delete_file a.txt'])
      expect(count('tools/call')).toBe(1)
    }, 120_000)

    it('a denied call and a settled task: the model reads the denial and the task’s result', async () => {
      const { handler, model, gate, ran, first } = await firstTurn(mode)
      gate.complete()
      const second = await send(handler, [question, first])
      expect(model.requests).toHaveLength(1)
      const third = await send(handler, [
        question,
        answer(second, { c1: { approved: false, reason: 'keep it' } }),
      ])
      expect(toolStates(third)).toStrictEqual([
        ['c1', 'output-denied'],
        ['c2', 'output-available'],
      ])
      expect(ran).toStrictEqual([])
      expect(model.requests).toHaveLength(2)
      const [denied, built] = model.toolMessages(1)
      expect(denied?.id).toBe('c1')
      expect(denied?.content).toMatch(/keep it/)
      expect(built).toStrictEqual({ id: 'c2', content: 'Report for July.' })
    }, 120_000)
  },
)
