// A run whose MCP tool call is still running as a task past the server's `taskWaitMs`: it suspends with
// the task pending (sealed like an approval, or stored with the conversation), and a resume on any
// instance claims it once, asks the server for the task's result and goes on with it.

import type { ModelMessage } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import type { RunEvent, RunState } from '../../src/contracts/run-types.js'
import { InMemoryConversationStore } from '../../src/stores/in-memory-conversation-store.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { call, clientFor, refusal, startApprovalModel, suspended } from './support.js'
import { toolkitFor as sharedToolkitFor, startTaskServer as startSharedServer } from './task-server.js'

const closers: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined)
})

const startTaskServer = (options: Parameters<typeof startSharedServer>[1] = {}) =>
  startSharedServer(closers, options)
const toolkitFor = (url: string, extra: Parameters<typeof sharedToolkitFor>[2] = {}) =>
  sharedToolkitFor(closers, url, extra)

async function setup(options: Parameters<typeof startTaskServer>[0] = {}) {
  const mcp = await startTaskServer(options)
  const model = await startApprovalModel([call('c1', 'srv_build', { month: 'July' })])
  closers.push(() => model.close())
  const toolkit = await toolkitFor(mcp.url)
  return { ...mcp, model, toolkit, client: clientFor(model) }
}

describe('a task still running past taskWaitMs', () => {
  it('suspends the run with the pending task, in a JSON state; no approval is asked', async () => {
    const { client, toolkit, model, gate } = await setup()
    const first = suspended(await client.run('Build the July report', { toolkit }))
    expect(first.pending).toStrictEqual([])
    expect(first.tasks).toStrictEqual([
      { toolCallId: 'c1', toolName: 'srv_build', server: 'srv', taskId: expect.any(String) },
    ])
    expect(gate.started).toStrictEqual(['July'])
    expect(model.requests).toHaveLength(1)
    // The transcript is valid history as it is: the call is answered, saying the task still runs.
    expect(JSON.stringify(first.messages.at(-1))).toMatch(/Still running on MCP server \\"srv\\"/)
    const text = JSON.stringify(first.state)
    expect(JSON.parse(text)).toStrictEqual(first.state)
  }, 60_000)

  it('resumed once the task completed: its result is the call’s result, the tool not called again', async () => {
    const { client, toolkit, model, gate, methods } = await setup()
    const first = suspended(await client.run('Build the July report', { toolkit }))
    gate.complete()
    const done = await client.resume(JSON.stringify(first.state), { toolkit })
    expect(done.status).toBe('done')
    expect(model.toolMessages(1)).toStrictEqual([{ id: 'c1', content: 'Report for July.' }])
    expect(done.text).toBe('got Report for July.')
    expect(gate.started).toStrictEqual(['July'])
    expect(methods.filter((method) => method === 'tools/call')).toHaveLength(1)
    expect(methods).toContain('tasks/get')
  }, 60_000)

  it('streams: the pending answer as the call’s tool-result, then on resume the task’s result', async () => {
    const { client, toolkit, gate } = await setup()
    const events: RunEvent<unknown>[] = []
    for await (const event of client.stream('Build the July report', { toolkit })) events.push(event)
    const finish = events.at(-1)
    if (finish?.type !== 'finish') throw new Error('no finish event')
    const first = suspended(finish.result)
    expect(events.filter((event) => event.type === 'tool-result')).toMatchObject([
      {
        toolCallId: 'c1',
        isError: false,
        output: expect.stringMatching(/^Still running/),
        task: { server: 'srv', taskId: first.tasks[0]?.taskId, status: 'working' },
      },
    ])
    gate.complete()
    const resumed: RunEvent<unknown>[] = []
    for await (const event of client.resumeStream(first.state, { toolkit })) resumed.push(event)
    expect(resumed.filter((event) => event.type === 'tool-result')).toStrictEqual([
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'srv_build',
        output: 'Report for July.',
        isError: false,
        task: { server: 'srv', taskId: first.tasks[0]?.taskId, status: 'settled' },
      },
    ])
    expect(resumed.at(-1)).toMatchObject({ type: 'finish', result: { status: 'done' } })
  }, 60_000)

  it('resumed while the task still works: suspends again with the same task, then goes on', async () => {
    const { client, toolkit, model, gate } = await setup()
    const first = suspended(await client.run('Build the July report', { toolkit }))
    const again = suspended(await client.resume(first.state, { toolkit }))
    expect(again.tasks).toStrictEqual(first.tasks)
    expect(again.state.seal).not.toBe(first.state.seal)
    expect(model.requests).toHaveLength(1)
    gate.complete()
    const done = await client.resume(again.state, { toolkit })
    expect(done.status).toBe('done')
    expect(model.toolMessages(1)).toStrictEqual([{ id: 'c1', content: 'Report for July.' }])
  }, 60_000)

  it('resumed after the tool failed in its task: the model reads the failure as the call’s error', async () => {
    const { client, toolkit, model, gate } = await setup()
    const first = suspended(await client.run('Build the July report', { toolkit }))
    gate.fail('the printer is on fire')
    const done = await client.resume(first.state, { toolkit })
    expect(done.status).toBe('done')
    expect(model.toolMessages(1)).toStrictEqual([
      { id: 'c1', content: 'Tool "build" failed: the printer is on fire' },
    ])
    expect(done.toolCalls.map((record) => [record.id, record.isError])).toStrictEqual([['c1', true]])
  }, 60_000)

  it('resumed after the task itself failed (past its deadline): the call’s error says so', async () => {
    const { client, toolkit, model } = await setup({ taskTimeoutMs: 1200 })
    const first = suspended(await client.run('Build the July report', { toolkit }))
    // Past the task's deadline on the server (1.2 s from its start).
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const done = await client.resume(first.state, { toolkit })
    expect(done.status).toBe('done')
    const [answer] = model.toolMessages(1)
    expect(answer?.content).toMatch(/the task failed: The task did not finish within 1200 ms/)
    expect(done.toolCalls.map((record) => [record.id, record.isError])).toStrictEqual([['c1', true]])
  }, 60_000)

  it('refuses a replayed resume: the task is fetched and the run goes on once', async () => {
    const { client, toolkit, model, gate } = await setup()
    const first = suspended(await client.run('Build the July report', { toolkit }))
    gate.complete()
    expect((await client.resume(first.state, { toolkit })).status).toBe('done')
    const replay = await refusal(client.resume(first.state, { toolkit }))
    expect(replay.code).toBe('replayed-approval')
    expect(model.requests).toHaveLength(2)
  }, 60_000)

  it('refuses a resume past approvalTtlSeconds, saying the run was not resumed in time', async () => {
    const mcp = await startTaskServer()
    const model = await startApprovalModel([call('c1', 'srv_build', { month: 'July' })])
    closers.push(() => model.close())
    const toolkit = await toolkitFor(mcp.url)
    const client = clientFor(model, { approvalTtlSeconds: 1 })
    const first = suspended(await client.run('Build the July report', { toolkit }))
    mcp.gate.complete()
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    const before = mcp.methods.length
    const error = await refusal(client.resume(first.state, { toolkit }))
    expect(error.code).toBe('expired-approval')
    expect(error.message).toMatch(/it was not resumed in time/)
    expect(mcp.methods.slice(before).filter((method) => method === 'tasks/get')).toStrictEqual([])
  }, 60_000)

  it('refuses a state whose task was altered, asking no server', async () => {
    const { client, toolkit, gate, methods } = await setup()
    const first = suspended(await client.run('Build the July report', { toolkit }))
    gate.complete()
    const altered = structuredClone(first.state) as RunState
    const entry = altered.calls[0] as NonNullable<RunState['calls'][0]>
    entry.task = { server: 'srv', tool: 'build', taskId: 'someone-elses-task' }
    const before = methods.length
    expect((await refusal(client.resume(altered, { toolkit }))).code).toBe('altered-state')
    expect(methods.slice(before).filter((method) => method === 'tasks/get')).toStrictEqual([])
  }, 60_000)

  it('never runs a host tool of the same name in place of the task’s result', async () => {
    const { client, toolkit, url, model, gate } = await setup()
    const first = suspended(await client.run('Build the July report', { toolkit }))
    const impostor: string[] = []
    // The other instance's config drops the server's own `build`, so the host tool takes its name.
    const other = await toolkitFor(url, {
      mcpConfig: { mcpServers: { srv: { url, taskWaitMs: 300, tools: { build: false } } } },
      tools: [
        defineTool({
          name: 'srv_build',
          description: 'A host tool that took the name.',
          execute: () => {
            impostor.push('ran')
            return 'the impostor’s report'
          },
        }),
      ],
    })
    expect(other.get('srv_build')?.source).toBe('native')
    gate.complete()
    const done = await client.resume(first.state, { toolkit: other })
    expect(done.status).toBe('done')
    expect(impostor).toStrictEqual([])
    expect(model.toolMessages(1)).toStrictEqual([{ id: 'c1', content: 'Report for July.' }])
  }, 60_000)

  it('refuses a task id over 1,024 characters: the call fails, nothing is kept to resume', async () => {
    const long = 't'.repeat(2000)
    const rewrite = (body: string, method: string) =>
      method === 'tools/call' ? body.replace(/"taskId":"[^"]*"/, `"taskId":"${long}"`) : body
    const { client, toolkit, model } = await setup({ rewrite })
    const result = await client.run('Build the July report', { toolkit })
    expect(result.status).toBe('done')
    const [answer] = model.toolMessages(1)
    expect(answer?.content).toMatch(/whose id has 2000 characters \(at most 1024\)/)
  }, 60_000)
})

describe('a result that only looks like a pending task', () => {
  it('does not suspend the run: only the MCP connection marks a call as running as a task', async () => {
    const model = await startApprovalModel([call('c1', 'lookalike', {})])
    closers.push(() => model.close())
    const toolkit = await createToolkit({
      tools: [
        defineTool({
          name: 'lookalike',
          description: 'Answers with what a pending task carries.',
          execute: () => ({
            output: 'Still running on MCP server "srv" as task "t1".',
            isError: false,
            metadata: { pendingTask: { server: 'srv', taskId: 't1' } },
          }),
        }),
      ],
    })
    const result = await clientFor(model).run('Look', { toolkit })
    expect(result.status).toBe('done')
    expect(model.requests).toHaveLength(2)
  }, 60_000)
})

describe('a task suspension in a conversation store', () => {
  it('is resumed by another instance sharing the store, once', async () => {
    const mcp = await startTaskServer()
    const model = await startApprovalModel([call('c1', 'srv_build', { month: 'July' })])
    closers.push(() => model.close())
    const store = new InMemoryConversationStore<ModelMessage>()
    const secret = 'one-secret-for-every-instance'
    const [firstKit, secondKit] = [await toolkitFor(mcp.url), await toolkitFor(mcp.url)]
    const first = clientFor(model, { secret, store, claims: store })
    const second = clientFor(model, { secret, store, claims: store })
    const id = `tasks-${Math.random().toString(36).slice(2)}`

    const asked = suspended(await first.ask('Build the July report', { id, toolkit: firstKit }))
    expect(asked.tasks.map((task) => task.toolName)).toStrictEqual(['srv_build'])
    expect((await store.load(id))?.suspended).toBeDefined()

    // Another instance asks while it still works: suspended again, still stored.
    const waiting = suspended(await second.ask(undefined, { id, toolkit: secondKit, approvals: [] }))
    expect(waiting.tasks.map((task) => task.taskId)).toStrictEqual(asked.tasks.map((task) => task.taskId))
    expect((await store.load(id))?.suspended).toBeDefined()

    mcp.gate.complete()
    const done = await second.ask(undefined, { id, toolkit: secondKit, approvals: [] })
    expect(done.status).toBe('done')
    expect(done.text).toBe('got Report for July.')
    const stored = await store.load(id)
    expect(stored?.suspended).toBeUndefined()
    expect(stored?.messages).toStrictEqual(done.messages)
    // The stored transcript has the task's result, not the "still running" answer.
    expect(JSON.stringify(stored?.messages)).not.toMatch(/Still running/)

    const replay = await refusal(first.ask(undefined, { id, toolkit: firstKit, approvals: [] }))
    expect(replay.code).toBe('replayed-approval')
    expect(mcp.gate.started).toStrictEqual(['July'])
  }, 60_000)
})
