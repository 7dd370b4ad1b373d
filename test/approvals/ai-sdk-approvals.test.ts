import { generateText, type ModelMessage, stepCountIs, tool } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { fromAISDK } from '../../src/adapters/from-ai-sdk.js'
import { toAISDK } from '../../src/adapters/to-ai-sdk.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { provider } from '../loop/support.js'
import type { ScriptedServer } from '../support/scripted-server.js'
import { approvalTools, call, clientFor, startApprovalModel } from './support.js'

const servers: ScriptedServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function model(calls: Array<ReturnType<typeof call>>) {
  const server = await startApprovalModel(calls)
  servers.push(server)
  return { server, model: provider('openai-chat').model(server.url) }
}

describe('toAISDK carries the approval flag into the AI SDK’s own approval flow', () => {
  it('generateText stops with a tool-approval-request; approved in the next call, the tool runs', async () => {
    const { server, model: languageModel } = await model([
      call('c1', 'delete_file', { path: 'a.txt' }),
      call('c2', 'send_money', { amount: 5 }),
    ])
    const { tools, ran } = approvalTools()
    const toolkit = await createToolkit({ tools, approval: { tools: ['get_weather'] } })
    const toolSet = toolkit.toAISDK()
    expect(toolSet.delete_file?.needsApproval).toBe(true)
    expect(typeof toolSet.send_money?.needsApproval).toBe('function')
    expect(toolSet.get_weather?.needsApproval).toBe(true)

    const prompt: ModelMessage[] = [{ role: 'user', content: 'Clean up and pay' }]
    const first = await generateText({
      model: languageModel,
      tools: toolSet,
      messages: prompt,
      stopWhen: stepCountIs(5),
    })
    const requests = first.content.filter((part) => part.type === 'tool-approval-request')
    // send_money's rule lets 5 through: it ran; delete_file waits.
    expect(requests.map((part) => part.toolCall.toolName)).toStrictEqual(['delete_file'])
    expect(ran).toStrictEqual(['send_money 5'])
    expect(server.requests).toHaveLength(1)

    const approvalId = requests[0]?.approvalId as string
    const messages: ModelMessage[] = [
      ...prompt,
      ...first.response.messages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] },
    ]
    const second = await generateText({
      model: languageModel,
      tools: toolSet,
      messages,
      stopWhen: stepCountIs(5),
    })
    expect(ran).toStrictEqual(['send_money 5', 'delete_file a.txt'])
    expect(second.text).toContain('deleted a.txt')
  })

  it('a standalone toAISDK keeps a tool’s own rule, called with the input and the call id', async () => {
    const seen: unknown[] = []
    const { tools } = approvalTools()
    const rule = toAISDK([
      {
        ...(tools[1] as (typeof tools)[number]),
        needsApproval: (args, context) => seen.push([args, context]) > 0,
      },
    ]).send_money?.needsApproval as unknown as (
      input: unknown,
      options: { toolCallId: string; messages: [] },
    ) => boolean
    expect(rule({ amount: 3 }, { toolCallId: 'x', messages: [] })).toBe(true)
    expect(seen).toStrictEqual([[{ amount: 3 }, { toolCallId: 'x' }]])
    expect(toAISDK([tools[2] as (typeof tools)[number]]).get_weather?.needsApproval).toBeUndefined()
  })
})

describe('fromAISDK reads the AI SDK’s approval flag', () => {
  it('a tool with needsApproval: true, or a function of its input, suspends the toolnexus loop', async () => {
    const ran: string[] = []
    const seen: unknown[] = []
    const converted = await fromAISDK({
      wipe_disk: tool({
        description: 'Wipes a disk.',
        inputSchema: z.object({ disk: z.string() }),
        needsApproval: true,
        execute: async ({ disk }) => {
          ran.push(`wipe ${disk}`)
          return `wiped ${disk}`
        },
      }),
      transfer: tool({
        description: 'Transfers money.',
        inputSchema: z.object({ amount: z.number() }),
        needsApproval: async ({ amount }, options) => {
          seen.push([amount, options.toolCallId, options.messages])
          return amount > 100
        },
        execute: async ({ amount }) => {
          ran.push(`transfer ${amount}`)
          return `sent ${amount}`
        },
      }),
    })
    expect(converted.map((each) => each.needsApproval === true || typeof each.needsApproval)).toStrictEqual([
      true,
      'function',
    ])
    const toolkit = await createToolkit({ tools: converted })
    const { server } = await model([
      call('c1', 'wipe_disk', { disk: 'sda' }),
      call('c2', 'transfer', { amount: 10 }),
      call('c3', 'transfer', { amount: 1000 }),
    ])
    const client = clientFor(server)
    const first = await client.run('Go', { toolkit })
    expect(first.pending?.map((each) => each.toolCallId)).toStrictEqual(['c1', 'c3'])
    expect(ran).toStrictEqual(['transfer 10'])
    expect(seen).toStrictEqual([
      [10, 'c2', []],
      [1000, 'c3', []],
    ])
    const [wipe, big] = (first.pending ?? []).map((each) => each.approvalId) as [string, string]
    const next = await client.resume(first.state as never, {
      toolkit,
      approvals: [
        { approvalId: wipe, approved: false },
        { approvalId: big, approved: true },
      ],
    })
    expect(next.status).toBe('done')
    expect(ran).toStrictEqual(['transfer 10', 'transfer 1000'])
  })
})
