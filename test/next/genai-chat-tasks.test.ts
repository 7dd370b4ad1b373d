// The chat handler over a `@google/genai` client (the real SDK against the scripted Gemini endpoint) whose
// toolkit's MCP server runs a call as a task past `taskWaitMs`, and a second call that waits for approval:
// the run suspends with both, the stream shows both, and Gemini is asked again only once the task has
// settled and the person has answered — with the model turn as it sent it and the task's real result.
import type { UIMessage } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import type { GenAIMessage } from '../../src/client/client-options.js'
import { createClient } from '../../src/client/create-client.js'
import { createChatHandler } from '../../src/next/create-chat-handler.js'
import { InMemoryConversationStore } from '../../src/stores/in-memory-conversation-store.js'
import { answer, CHAT_SECRET, send, taskStatuses, toolStates } from '../approvals/chat-support.js'
import { approvalTools } from '../approvals/support.js'
import { type Closers, startTaskServer, toolkitFor } from '../approvals/task-server.js'
import {
  type GeminiPartJson,
  genaiFor,
  startScriptedGemini,
  streamReply,
} from '../support/scripted-gemini.js'

const closers: Closers = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined)
})

const MODEL = 'gemini-2.5-flash'
const question: UIMessage = {
  id: 'u1',
  role: 'user',
  parts: [{ type: 'text', text: 'Build the July report' }],
}
const BUILD: GeminiPartJson = {
  functionCall: { id: 'g-build', name: 'srv_build', args: { month: 'July' } },
  thoughtSignature: 'c2lnLWJ1aWxk',
}
const DELETE: GeminiPartJson = { functionCall: { id: 'g-del', name: 'delete_file', args: { path: 'a.txt' } } }

async function setup(mode: 'store' | 'signed', calls: GeminiPartJson[]) {
  const mcp = await startTaskServer(closers)
  const gemini = await startScriptedGemini({
    script: [streamReply([calls]), streamReply([[{ text: 'Built.' }]])],
  })
  closers.push(() => gemini.close())
  const { tools, ran } = approvalTools()
  const toolkit = await toolkitFor(closers, mcp.url, { tools })
  const client = createClient({ genai: genaiFor(gemini.baseUrl), model: MODEL, retries: 0 })
  const store = new InMemoryConversationStore<GenAIMessage>()
  const handler =
    mode === 'store'
      ? createChatHandler({ client, toolkit, store })
      : createChatHandler({ client, toolkit, secret: CHAT_SECRET, claims: new InMemoryConversationStore() })
  const count = (method: string) => mcp.methods.filter((each) => each === method).length
  return { ...mcp, gemini, handler, ran, count, store }
}

describe.each(['store', 'signed'] as const)(
  'a @google/genai chat run waiting on an MCP task (%s mode)',
  (mode) => {
    it('suspends on the task, then gives Gemini the task’s result with its model turn verbatim', async () => {
      const { handler, gemini, gate, count, store } = await setup(mode, [BUILD])
      const first = await send(handler, [question])
      expect(toolStates(first)).toStrictEqual([['g-build', 'input-available']])
      expect(taskStatuses(first)).toStrictEqual([['g-build', 'working']])
      if (mode === 'store') expect((await store.load('chat-1'))?.suspended).toBeDefined()
      expect(gemini.requests).toHaveLength(1)

      // Still working: Gemini is not asked.
      const second = await send(handler, [question, first])
      expect(taskStatuses(second)).toStrictEqual([['g-build', 'working']])
      expect(gemini.requests).toHaveLength(1)

      gate.complete()
      const third = await send(handler, [question, second])
      expect(toolStates(third)).toStrictEqual([['g-build', 'output-available']])
      expect(taskStatuses(third)).toStrictEqual([['g-build', 'completed']])
      expect(third.parts.at(-1)).toMatchObject({ type: 'text', text: 'Built.' })
      expect(gemini.requests).toHaveLength(2)
      const contents = gemini.requests[1]?.body.contents ?? []
      expect(contents.slice(-2)).toStrictEqual([
        { role: 'model', parts: [BUILD] },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'g-build',
                name: 'srv_build',
                response: { output: 'Report for July.' },
              },
            },
          ],
        },
      ])
      expect(JSON.stringify(contents)).not.toMatch(/Still running/)
      expect(count('tools/call')).toBe(1)
      if (mode === 'store') expect((await store.load('chat-1'))?.suspended).toBeUndefined()
    }, 120_000)

    it('with an approval in the same turn: Gemini is asked again only once both are answered', async () => {
      const { handler, gemini, gate, ran, count } = await setup(mode, [BUILD, DELETE])
      const first = await send(handler, [question])
      expect(toolStates(first)).toStrictEqual([
        ['g-build', 'input-available'],
        ['g-del', 'approval-requested'],
      ])
      expect(taskStatuses(first)).toStrictEqual([['g-build', 'working']])

      const second = await send(handler, [question, answer(first, { 'g-del': { approved: true } })])
      expect(ran).toStrictEqual(['delete_file a.txt'])
      expect(taskStatuses(second)).toStrictEqual([['g-build', 'working']])
      expect(gemini.requests).toHaveLength(1)

      gate.complete()
      const third = await send(handler, [question, second])
      expect(toolStates(third)).toStrictEqual([
        ['g-build', 'output-available'],
        ['g-del', 'output-available'],
      ])
      expect(gemini.requests).toHaveLength(2)
      expect(gemini.requests[1]?.body.contents?.at(-1)).toStrictEqual({
        role: 'user',
        parts: [
          {
            functionResponse: { id: 'g-build', name: 'srv_build', response: { output: 'Report for July.' } },
          },
          { functionResponse: { id: 'g-del', name: 'delete_file', response: { output: 'deleted a.txt' } } },
        ],
      })
      expect(ran).toStrictEqual(['delete_file a.txt'])
      expect(count('tools/call')).toBe(1)
    }, 120_000)
  },
)
