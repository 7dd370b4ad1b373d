// The provider form over an MCP server that runs a call as a task past its `taskWaitMs`: nothing can
// resume a run the wrapper suspended, so the call is waited for — its server asked again until the task
// settles — and the model reads the task's real result.
import { generateText, type LanguageModel, streamText } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/errors.js'
import { withToolkit } from '../../src/provider-form/with-toolkit.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { call, startApprovalModel } from '../approvals/support.js'
import { type Closers, startTaskServer, toolkitFor } from '../approvals/task-server.js'
import { provider } from '../loop/support.js'

const closers: Closers = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined)
})

async function setup(
  extra: Parameters<typeof toolkitFor>[2] = {},
  options: Omit<Parameters<typeof withToolkit>[1], 'toolkit'> = {},
) {
  const mcp = await startTaskServer(closers)
  const server = await startApprovalModel([call('c1', 'srv_build', { month: 'July' })])
  closers.push(() => server.close())
  const toolkit = await toolkitFor(closers, mcp.url, extra)
  const inner = provider('openai-chat').model(server.url) as Exclude<LanguageModel, string>
  const model = withToolkit(inner, { toolkit, ...options })
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

// A task that never settles: the wrapper cannot suspend, so it waits — but only for the toolkit's tool
// timeout, counted from the call's start. Then the model reads why, the run goes on, and the server is
// asked to cancel the task.
const BOUND_MS = 1500
const GAVE_UP = new RegExp(
  `^Task "[^"]+" on MCP server "srv" did not finish within ${BOUND_MS} ms, .*may still be running\\.$`,
)

describe('withToolkit over an MCP task that never settles', () => {
  it('generateText gives up at the tool timeout, tells the model, and cancels the task', async () => {
    const { model, server, methods, count } = await setup({ toolTimeoutMs: BOUND_MS })
    const started = Date.now()
    const result = await generateText({ model, prompt: 'Build the July report' })
    const took = Date.now() - started
    const [message] = server.toolMessages(1)
    expect(message?.id).toBe('c1')
    expect(message?.content).toMatch(GAVE_UP)
    expect(result.text).toMatch(/^got Task /)
    expect(server.requests).toHaveLength(2)
    expect(took).toBeGreaterThanOrEqual(BOUND_MS - 50)
    expect(took).toBeLessThan(20_000)
    // The cancel goes out as the last round is aborted; the server sees it soon after.
    for (let waited = 0; !methods.includes('tasks/cancel') && waited < 10_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(count('tasks/cancel')).toBe(1)
    expect(count('tools/call')).toBe(1)
  }, 40_000)

  it('streamText reports the call once, as that error', async () => {
    const { model, methods } = await setup({ toolTimeoutMs: BOUND_MS })
    const stream = streamText({ model, prompt: 'Build the July report' })
    const parts = []
    for await (const part of stream.fullStream) parts.push(part)
    const results = parts.filter((part) => part.type === 'tool-result' || part.type === 'tool-error')
    expect(results).toHaveLength(1)
    expect(JSON.stringify(results[0])).toMatch(/did not finish within 1500 ms/)
    expect(await stream.text).toMatch(/^got Task /)
    for (let waited = 0; !methods.includes('tasks/cancel') && waited < 10_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(methods).toContain('tasks/cancel')
  }, 40_000)

  it('maxTaskWaitMs sets the bound apart from the tool timeout, past it too', async () => {
    const { model, server, methods } = await setup({ toolTimeoutMs: 700 }, { maxTaskWaitMs: 1800 })
    const started = Date.now()
    await generateText({ model, prompt: 'Build the July report' })
    expect(Date.now() - started).toBeGreaterThanOrEqual(1750)
    expect(server.toolMessages(1)[0]?.content).toMatch(
      /^Task "[^"]+" on MCP server "srv" did not finish within 1800 ms/,
    )
    for (let waited = 0; !methods.includes('tasks/cancel') && waited < 10_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(methods).toContain('tasks/cancel')
  }, 40_000)

  it('withToolkit refuses a maxTaskWaitMs that is not a positive number, naming the field', async () => {
    const toolkit = await createToolkit({})
    closers.push(() => toolkit.close())
    const inner = provider('openai-chat').model('http://127.0.0.1:9') as Exclude<LanguageModel, string>
    let caught: unknown
    try {
      withToolkit(inner, { toolkit, maxTaskWaitMs: -1 })
    } catch (error) {
      caught = error
    }
    expect(ConfigError.isInstance(caught)).toBe(true)
    expect((caught as ConfigError).field).toBe('maxTaskWaitMs')
  })
})
