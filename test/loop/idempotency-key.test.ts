// Every tool call gets an idempotency key, `<run id>:<turn>:<position>`: native tools read it from their
// context, HTTP tools send it as `Idempotency-Key`, MCP calls carry it in `_meta`.
import { createOpenAI } from '@ai-sdk/openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createClient, createToolkit, defineTool, httpTool, type Toolkit } from '../../src/index.js'
import { type RecordingServer, startRecordingServer } from '../http/recording-server.js'
import { stdioServer } from '../mcp/mcp-fixtures.js'
import { openaiChatProtocol } from '../support/scripted-openai.js'
import { type ScriptedServer, startScriptedServer } from '../support/scripted-server.js'

let model: ScriptedServer
let http: RecordingServer
let toolkit: Toolkit
const seen: Array<string | undefined> = []

beforeAll(async () => {
  http = await startRecordingServer()
  // Each user turn: one call of each tool at once; after their results, an answer.
  model = await startScriptedServer({
    protocol: openaiChatProtocol,
    script: (request) =>
      request.body.messages.at(-1)?.role === 'user'
        ? {
            type: 'reply',
            toolCalls: [
              { id: 'call_a', name: 'note', arguments: '{}' },
              { id: 'call_b', name: 'post_order', arguments: '{}' },
              { id: 'call_c', name: 'meta_call_meta', arguments: '{}' },
              { id: 'call_d', name: 'keyed_order', arguments: '{}' },
            ],
          }
        : { type: 'reply', text: 'ok' },
  })
  toolkit = await createToolkit({
    tools: [
      defineTool({
        name: 'note',
        description: 'Notes its key.',
        inputSchema: z.object({}),
        execute: async (_args, { idempotencyKey }) => {
          seen.push(idempotencyKey)
          return 'noted'
        },
      }),
      httpTool({
        name: 'post_order',
        description: 'Posts an order.',
        method: 'POST',
        url: `${http.origin}/orders`,
        inputSchema: { type: 'object', properties: {} },
      }),
      httpTool({
        name: 'keyed_order',
        description: 'Posts an order with its own key.',
        method: 'POST',
        url: `${http.origin}/keyed`,
        headers: { 'Idempotency-Key': 'configured' },
        inputSchema: { type: 'object', properties: {} },
      }),
    ],
    mcpConfig: { mcpServers: { meta: stdioServer('--call-meta') } },
  })
}, 60_000)

afterAll(async () => {
  await Promise.all([toolkit?.close(), model?.close(), http?.close()])
})

function client() {
  return createClient({
    model: createOpenAI({ baseURL: `${model.url}/v1`, apiKey: 'test' }).chat('gpt-scripted'),
  })
}

describe('the idempotency key of a tool call', () => {
  it('is <run id>:<turn>:<position> for a native tool, an HTTP tool and an MCP call', async () => {
    seen.length = 0
    http.requests.length = 0
    const result = await client().run('Order', { toolkit, runId: 'order-7' })
    expect(seen).toStrictEqual(['order-7:1:1'])
    const header = (path: string) =>
      http.requests.find((request) => request.url === path)?.headers['idempotency-key']
    expect(header('/orders')).toBe('order-7:1:2')
    expect(result.toolCalls.find((call) => call.id === 'call_c')?.output).toBe(
      JSON.stringify({ idempotencyKey: 'order-7:1:3' }),
    )
    // A header the tool was configured with is the tool's own choice.
    expect(header('/keyed')).toBe('configured')
  })

  it('starts with an id of its own for a run given none: random per process, one per run', async () => {
    seen.length = 0
    await client().run('Order', { toolkit })
    await client().run('Order', { toolkit })
    const [first, second] = seen
    expect(first).toMatch(/^run_[0-9a-f]{12}_\d+:1:1$/)
    expect(second).toMatch(/^run_[0-9a-f]{12}_\d+:1:1$/)
    expect(first).not.toBe(second)
  })

  it.each([
    ['empty', ''],
    ['a space', 'order 7'],
    ['a line break', 'order\r\n7'],
    ['over 256 characters', 'x'.repeat(257)],
  ])('refuses a run id with %s (it goes out in a header)', async (_case, runId) => {
    await expect(client().run('Order', { toolkit, runId })).rejects.toThrow(
      /`runId` must be 1 to 256 printable/,
    )
  })
})
