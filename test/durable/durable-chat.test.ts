// The chat handler's store mode over a durable client (DBOS on a real Postgres, in this process): an
// answer streams through the durable run with its tool call, and a call that waits for approval runs
// once when the answer comes back, however often the browser sends it.
import { createOpenAI } from '@ai-sdk/openai'
import type { ModelMessage, UIMessage } from 'ai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createClient } from '../../src/client/create-client.js'
import { createDbosRunner, type DbosRunner } from '../../src/dbos/create-dbos-runner.js'
import { createChatHandler } from '../../src/next/create-chat-handler.js'
import { InMemoryConversationStore } from '../../src/stores/in-memory-conversation-store.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { chatThrough, userMessage } from '../next/ui-stream.js'
import { findPostgresBin, requireBinary } from '../support/database-binaries.js'
import { type PostgresServer, startPostgresServer } from '../support/postgres-server.js'
import { openaiChatProtocol } from '../support/scripted-openai.js'
import { type ScriptedServer, startScriptedServer } from '../support/scripted-server.js'
import { openaiRefundScript } from './fixtures/refund-models.js'

const havePostgres = requireBinary(findPostgresBin(), 'the durable chat test')

let postgres: PostgresServer | undefined
let model: ScriptedServer
let durable: DbosRunner | undefined
const refunded: string[] = []

beforeAll(async () => {
  model = await startScriptedServer({ protocol: openaiChatProtocol, script: openaiRefundScript(new Set()) })
  if (!havePostgres) return
  postgres = await startPostgresServer()
  durable = await createDbosRunner({
    connectionString: postgres.connectionString,
    appVersion: 'chat-test',
    executorId: 'chat-test',
  })
}, 120_000)

afterAll(async () => {
  await durable?.close()
  await Promise.all([postgres?.stop(), model?.close()])
})

async function handler() {
  const toolkit = await createToolkit({
    tools: [
      defineTool({
        name: 'refund',
        description: 'Refunds an order.',
        inputSchema: z.object({ order: z.string() }),
        needsApproval: ({ order }) => String(order).startsWith('approve-'),
        execute: async ({ order }) => {
          refunded.push(order)
          return `refunded ${order}`
        },
      }),
    ],
  })
  const client = createClient({
    model: createOpenAI({ baseURL: `${model.url}/v1`, apiKey: 'test' }).chat('gpt-scripted'),
    durable,
  })
  return createChatHandler({ client, toolkit, store: new InMemoryConversationStore<ModelMessage>() })
}

function textOf(message: UIMessage | undefined): string {
  return (message?.parts ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('')
}

describe('the chat handler in store mode with a durable client', () => {
  it.runIf(havePostgres)('streams the answer and its tool call through the durable run', async () => {
    const chat = await handler()
    const exchange = await chatThrough(chat, [userMessage('u1', 'order-1')], { chatId: 'durable-chat-1' })
    expect(exchange.errors).toStrictEqual([])
    expect(textOf(exchange.message)).toBe('refunded order-1')
    expect(exchange.chunks.some((chunk) => chunk.type === 'text-delta')).toBe(true)
    expect(refunded).toContain('order-1')
  })

  it.runIf(havePostgres)('runs an approved call once, however often the answer is sent', async () => {
    const chat = await handler()
    const question = userMessage('u1', 'approve-2')
    const first = await chatThrough(chat, [question], { chatId: 'durable-chat-2' })
    expect(first.errors).toStrictEqual([])
    const asked = structuredClone(first.message) as UIMessage
    const part = asked.parts.find((candidate) => candidate.type === 'dynamic-tool') as unknown as {
      state: string
      approval: { id: string; approved?: boolean }
    }
    expect(part.state).toBe('approval-requested')
    part.state = 'approval-responded'
    part.approval = { id: part.approval.id, approved: true }
    const second = await chatThrough(chat, [question, asked], { chatId: 'durable-chat-2' })
    expect(second.errors).toStrictEqual([])
    expect(textOf(second.message)).toBe('refunded approve-2')
    // The browser sends the same answer again: nothing runs a second time.
    await chatThrough(chat, [question, asked], { chatId: 'durable-chat-2' }).catch(() => undefined)
    expect(refunded.filter((order) => order === 'approve-2')).toStrictEqual(['approve-2'])
  })
})
