// The chat handler over a toolkit whose MCP server runs a call as a task past its `taskWaitMs`: the run
// suspends with the task pending (kept in the store, or signed with the answer), the stream shows the call
// as still running (a `data-toolnexus-task` part, the tool part left at `input-available`), and the next
// request — `useChat`'s `sendMessage()` with the message last — fetches the task's result and goes on,
// claimed once across instances.
import type { ModelMessage, UIMessage } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import type { ChatHandler } from '../../src/next/chat-handler-options.js'
import { createChatHandler } from '../../src/next/create-chat-handler.js'
import type { ConversationStore } from '../../src/stores/conversation-store.js'
import { InMemoryConversationStore } from '../../src/stores/in-memory-conversation-store.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { answer, CHAT_SECRET, postChat, send, taskParts, toolParts } from '../approvals/chat-support.js'
import { approvalTools, call, clientFor, startApprovalModel } from '../approvals/support.js'
import { type Closers, startTaskServer, toolkitFor } from '../approvals/task-server.js'
import { sharedStores } from '../support/shared-stores.js'

const closers: Closers = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined)
})

const question: UIMessage = {
  id: 'u1',
  role: 'user',
  parts: [{ type: 'text', text: 'Build the July report' }],
}

/** The task server, the model, and `instances` handlers (each with a toolkit of its own) over one store. */
async function setup(options: {
  mode: 'store' | 'signed'
  store?: ConversationStore<ModelMessage>
  instances?: number
}) {
  const mcp = await startTaskServer(closers)
  const model = await startApprovalModel([call('c1', 'srv_build', { month: 'July' })])
  closers.push(() => model.close())
  const store = options.store ?? new InMemoryConversationStore<ModelMessage>()
  const claims = new InMemoryConversationStore()
  const handlers: ChatHandler[] = []
  for (let index = 0; index < (options.instances ?? 1); index++) {
    const toolkit = await toolkitFor(closers, mcp.url)
    const client = clientFor(model)
    handlers.push(
      options.mode === 'store'
        ? createChatHandler({ client, toolkit, store })
        : createChatHandler({ client, toolkit, secret: CHAT_SECRET, claims }),
    )
  }
  const count = (method: string) => mcp.methods.filter((each) => each === method).length
  return { ...mcp, model, store, handlers, handler: handlers[0] as ChatHandler, count }
}

describe.each(['store', 'signed'] as const)('a chat run waiting on an MCP task (%s mode)', (mode) => {
  it('shows the call as running, stays suspended while it works, then streams its result and goes on', async () => {
    const { handler, model, gate, store, count } = await setup({ mode })
    const first = await send(handler, [question])
    expect(toolParts(first).map((part) => [part.toolCallId, part.state])).toStrictEqual([
      ['c1', 'input-available'],
    ])
    expect(toolParts(first)[0]?.output).toBeUndefined()
    const [pending] = taskParts(first)
    expect(pending).toStrictEqual({
      type: 'data-toolnexus-task',
      id: 'c1',
      data: {
        toolCallId: 'c1',
        toolName: 'srv_build',
        server: 'srv',
        taskId: expect.any(String),
        status: 'working',
      },
    })
    expect(JSON.stringify(first.parts)).not.toMatch(/Still running/)
    if (mode === 'store') expect((await store.load('chat-1'))?.suspended).toBeDefined()
    expect(model.requests).toHaveLength(1)

    // Asked again while the task works: still pending, the model not called, the tool not called again.
    const second = await send(handler, [question, first])
    expect(taskParts(second).map((part) => part.data.status)).toStrictEqual(['working'])
    expect(toolParts(second).map((part) => part.state)).toStrictEqual(['input-available'])
    expect(model.requests).toHaveLength(1)
    expect(count('tasks/get')).toBeGreaterThan(0)

    gate.complete()
    const third = await send(handler, [question, second])
    expect(toolParts(third).map((part) => [part.state, part.output])).toStrictEqual([
      ['output-available', 'Report for July.'],
    ])
    expect(taskParts(third)).toStrictEqual([{ ...pending, data: { ...pending?.data, status: 'completed' } }])
    expect(third.parts.at(-1)).toMatchObject({ type: 'text', text: 'got Report for July.' })
    expect(model.toolMessages(1)).toStrictEqual([{ id: 'c1', content: 'Report for July.' }])
    expect(gate.started).toStrictEqual(['July'])
    expect(count('tools/call')).toBe(1)
    if (mode === 'store') expect((await store.load('chat-1'))?.suspended).toBeUndefined()

    // The conversation goes on from the resumed transcript: the task's result, not the pending text.
    const followUp: UIMessage = { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Thanks' }] }
    await send(handler, [question, third, followUp])
    expect(model.toolMessages(2)).toStrictEqual([{ id: 'c1', content: 'Report for July.' }])
  }, 120_000)

  it('a replayed resume fetches nothing and continues nothing', async () => {
    const { handler, model, gate, count } = await setup({ mode })
    const first = await send(handler, [question])
    gate.complete()
    await send(handler, [question, first])
    expect(model.requests).toHaveLength(2)
    const fetched = count('tasks/get')
    const replay = await postChat(handler, [question, first])
    if (mode === 'store') expect(replay.status).toBe(409)
    const body = await replay.text()
    if (mode === 'signed') expect(body).toMatch(/replayed|already|nothing ran/i)
    expect(count('tasks/get')).toBe(fetched)
    expect(model.requests).toHaveLength(2)
  }, 120_000)

  it('refuses a message showing a task for a run that waits on approvals only, claiming nothing', async () => {
    const model = await startApprovalModel([call('c1', 'delete_file', { path: 'a.txt' })])
    closers.push(() => model.close())
    const { tools, ran } = approvalTools()
    const toolkit = await createToolkit({ tools })
    closers.push(() => toolkit.close())
    const client = clientFor(model)
    const store = new InMemoryConversationStore<ModelMessage>()
    const handler =
      mode === 'store'
        ? createChatHandler({ client, toolkit, store })
        : createChatHandler({ client, toolkit, secret: CHAT_SECRET, claims: new InMemoryConversationStore() })
    const first = await send(handler, [question])
    expect(toolParts(first).map((part) => part.state)).toStrictEqual(['approval-requested'])
    const forged = structuredClone(first)
    forged.parts.push({ type: 'data-toolnexus-task', id: 'c1', data: { status: 'working' } } as never)
    const response = await postChat(handler, [question, forged])
    expect(response.status).toBe(409)
    expect(await response.text()).toMatch(/none were answered/)
    expect(model.requests).toHaveLength(1)
    // Nothing was claimed: the approval still resumes the run.
    const approved = answer(first, { c1: { approved: true } })
    const done = await send(handler, [question, approved])
    expect(toolParts(done).map((part) => part.state)).toStrictEqual(['output-available'])
    expect(ran).toStrictEqual(['delete_file a.txt'])
  }, 120_000)
})

describe.each(sharedStores('the chat task resume'))('two instances over a real $name store', (kind) => {
  it.runIf(kind.available)(
    'resume one pending task at once: exactly one fetches it and goes on, the other is refused',
    async () => {
      const store = kind.open() as unknown as ConversationStore<ModelMessage> & { close(): Promise<void> }
      closers.push(() => store.close())
      const { handlers, model, gate, count } = await setup({ mode: 'store', store, instances: 2 })
      const chatId = `chat-${kind.store}-${Date.now()}`
      const first = await send(handlers[0] as ChatHandler, [question], chatId)
      expect(taskParts(first).map((part) => part.data.status)).toStrictEqual(['working'])
      gate.complete()
      const answers = await Promise.all(
        handlers.map((handler) => postChat(handler, [question, first], chatId)),
      )
      const bodies = await Promise.all(answers.map((answer) => answer.text()))
      expect(answers.map((answer) => answer.status).sort()).toStrictEqual([200, 409])
      expect(bodies.filter((body) => body.includes('"tool-output-available"'))).toHaveLength(1)
      expect(model.requests).toHaveLength(2)
      expect(count('tools/call')).toBe(1)
      const saved = await store.load(chatId)
      expect(saved?.suspended).toBeUndefined()
      expect(JSON.stringify(saved?.messages)).toMatch(/Report for July\./)
      expect(JSON.stringify(saved?.messages)).not.toMatch(/Still running/)
    },
    120_000,
  )
})
