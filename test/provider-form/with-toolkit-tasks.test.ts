// The provider form over an MCP server that runs a call as a task past its `taskWaitMs`: nothing can
// resume a run the wrapper suspended, so the call is waited for — its server asked again until the task
// settles — and the model reads the task's real result.
import { generateText, type LanguageModel, streamText } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { withToolkit } from '../../src/provider-form/with-toolkit.js'
import { call, startApprovalModel } from '../approvals/support.js'
import { type Closers, startTaskServer, toolkitFor } from '../approvals/task-server.js'
import { provider } from '../loop/support.js'

const closers: Closers = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined)
})

async function setup() {
  const mcp = await startTaskServer(closers)
  const server = await startApprovalModel([call('c1', 'srv_build', { month: 'July' })])
  closers.push(() => server.close())
  const toolkit = await toolkitFor(closers, mcp.url)
  const inner = provider('openai-chat').model(server.url) as Exclude<LanguageModel, string>
  const model = withToolkit(inner, { toolkit })
  const count = (method: string) => mcp.methods.filter((each) => each === method).length
  /** Settles the task once the call has been asked again past its `taskWaitMs` (or `answer` ended). */
  const completeAfterRefetch = async (answer: Promise<unknown>) => {
    let ended = false
    void answer.then(
      () => (ended = true),
      () => (ended = true),
    )
    while (count('tasks/get') < 3 && !ended) await new Promise((resolve) => setTimeout(resolve, 50))
    mcp.gate.complete()
  }
  return { ...mcp, server, model, count, completeAfterRefetch }
}

describe('withToolkit over a call that runs as an MCP task past taskWaitMs', () => {
  it('generateText waits for the task and the model reads its result', async () => {
    const { model, server, gate, count, completeAfterRefetch } = await setup()
    const answer = generateText({ model, prompt: 'Build the July report' })
    const [result] = await Promise.all([answer, completeAfterRefetch(answer)])
    expect(result.text).toBe('got Report for July.')
    expect(server.toolMessages(1)).toStrictEqual([{ id: 'c1', content: 'Report for July.' }])
    expect(JSON.stringify(result.response.messages)).not.toMatch(/Still running/)
    expect(gate.started).toStrictEqual(['July'])
    expect(count('tools/call')).toBe(1)
  }, 120_000)

  it('streamText reports the call once, with the task’s result', async () => {
    const { model, server, completeAfterRefetch } = await setup()
    const stream = streamText({ model, prompt: 'Build the July report' })
    const collect = async () => {
      const parts = []
      for await (const part of stream.fullStream) parts.push(part)
      return parts
    }
    const collected = collect()
    const [parts] = await Promise.all([collected, completeAfterRefetch(collected)])
    const results = parts.filter((part) => part.type === 'tool-result')
    expect(results.map((part) => [part.toolCallId, part.output])).toStrictEqual([['c1', 'Report for July.']])
    expect(await stream.text).toBe('got Report for July.')
    expect(server.requests).toHaveLength(2)
  }, 120_000)
})
