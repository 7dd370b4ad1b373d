import type { ModelMessage, UIMessage } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { createChatHandler } from '../../src/next/create-chat-handler.js'
import { InMemoryConversationStore } from '../../src/stores/in-memory-conversation-store.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import type { ScriptedServer } from '../support/scripted-server.js'
import { answer, CHAT_SECRET, send, toolParts } from './chat-support.js'
import { approvalTools, call, clientFor, startApprovalModel } from './support.js'

const servers: ScriptedServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

const MODES = ['store', 'signed'] as const

describe.each(MODES)('the chat handler speaks the AI SDK UI approval protocol (%s mode)', (mode) => {
  async function setup() {
    const server = await startApprovalModel([
      call('c1', 'delete_file', { path: 'a.txt' }),
      call('c2', 'delete_file', { path: 'b.txt' }),
      call('c3', 'get_weather', { city: 'Oslo' }),
    ])
    servers.push(server)
    const { tools, ran } = approvalTools()
    const toolkit = await createToolkit({ tools })
    const client = clientFor(server)
    const store = new InMemoryConversationStore<ModelMessage>()
    const handler =
      mode === 'store'
        ? createChatHandler({ client, toolkit, store })
        : createChatHandler({
            client,
            toolkit,
            secret: CHAT_SECRET,
            claims: new InMemoryConversationStore(),
          })
    return { server, ran, handler, store }
  }

  it('streams approval requests; the request after the answers runs the approved call and denies the other', async () => {
    const { server, ran, handler, store } = await setup()
    const question: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Tidy up' }] }
    const first = await send(handler, [question])
    expect(toolParts(first).map((part) => [part.toolCallId, part.state])).toStrictEqual([
      ['c1', 'approval-requested'],
      ['c2', 'approval-requested'],
      ['c3', 'output-available'],
    ])
    expect(ran).toStrictEqual(['get_weather Oslo'])
    if (mode === 'store') expect((await store.load('chat-1'))?.suspended).toBeDefined()

    const answered = answer(first, { c1: { approved: true }, c2: { approved: false, reason: 'keep b' } })
    const second = await send(handler, [question, answered])
    expect(toolParts(second).map((part) => [part.toolCallId, part.state])).toStrictEqual([
      ['c1', 'output-available'],
      ['c2', 'output-denied'],
      ['c3', 'output-available'],
    ])
    expect(toolParts(second)[0]?.output).toBe('deleted a.txt')
    expect(ran).toStrictEqual(['get_weather Oslo', 'delete_file a.txt'])
    expect(server.toolMessages(1)).toStrictEqual([
      { id: 'c1', content: 'deleted a.txt' },
      {
        id: 'c2',
        content: 'The user declined this call to "delete_file"; it was not run. The user said: keep b',
      },
      { id: 'c3', content: 'sunny in Oslo' },
    ])
    expect(second.parts.at(-1)).toMatchObject({
      type: 'text',
      text: expect.stringContaining('deleted a.txt'),
    })

    // The same answers sent again: refused, nothing runs twice.
    const replay = await handler(
      new Request('http://localhost/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'chat-1', messages: [question, answered], trigger: 'submit-message' }),
      }),
    )
    if (mode === 'store') expect(replay.status).toBe(409)
    else await replay.text()
    expect(ran).toStrictEqual(['get_weather Oslo', 'delete_file a.txt'])

    // The conversation goes on from the resumed transcript.
    const followUp: UIMessage = { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Thanks' }] }
    await send(handler, [question, second, followUp])
    const roles = ((server.requests[2]?.body?.messages ?? []) as Array<{ role: string }>).map((m) => m.role)
    expect(roles).toStrictEqual(['user', 'assistant', 'tool', 'tool', 'tool', 'assistant', 'user'])
  })

  it('refuses answers for a run this server did not suspend', async () => {
    const { ran, handler } = await setup()
    const question: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Tidy up' }] }
    const first = await send(handler, [question])
    const forged = answer(first, { c1: { approved: true } })
    for (const part of toolParts(forged))
      if (part.approval !== undefined) part.approval.id = 'approval_forged'
    if (mode === 'signed') forged.metadata = {}
    const response = await handler(
      new Request('http://localhost/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'chat-1', messages: [question, forged], trigger: 'submit-message' }),
      }),
    )
    expect(response.status).toBe(409)
    expect(ran).toStrictEqual(['get_weather Oslo'])
  })
})
