// A `longRunning: { inputFirst: true }` tool served to 2026-07-28 requests with the tasks extension:
// the first leg answers input_required (no task yet), the retry with the answers becomes the task (no
// request state in it), and the task's result is made from the answers. The retry's state is sealed
// like any forwarded round: replayed, moved to another caller, or answering a key not asked, it is
// refused. The v2 SDK's Client refuses a `resultType: 'task'` answer, so the calls are made on the wire.
import { afterEach, describe, expect, it } from 'vitest'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { serveByBearer } from './serve-fetch.js'
import { type Rpc, wireRpc } from './wire-rpc.js'

const CAPABILITIES = { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } }
const closers: Array<() => Promise<unknown>> = []

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {})
})

const FORM = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'What is your name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
}

/** A gateway with a tool that asks a name before its task and one that asks nothing; runs counted. */
async function served(): Promise<{ url: URL; runs: string[] }> {
  const runs: string[] = []
  const toolkit = await createToolkit({
    tools: [
      defineTool({
        name: 'greet_later',
        description: 'Asks for a name, then greets it inside its task.',
        longRunning: { required: true, inputFirst: true },
        execute: async (_args, { inputRound }) => {
          runs.push(inputRound?.resumed === undefined ? 'first leg' : 'task')
          const answers = inputRound?.resumed?.responses ?? (await inputRound?.ask({ user_name: FORM }))
          const answer = answers?.user_name as { content?: { name?: unknown } } | undefined
          return `Hello, ${String(answer?.content?.name)}!`
        },
      }),
      defineTool({
        name: 'quiet',
        description: 'Asks nothing.',
        longRunning: { inputFirst: true },
        execute: () => 'Nothing to ask.',
      }),
    ],
  })
  closers.push(() => toolkit.close())
  return { url: await serveByBearer(toolkit, closers), runs }
}

function rpc(url: URL, method: string, params: Record<string, unknown>, caller = 'alice'): Promise<Rpc> {
  return wireRpc(url, method, params, { capabilities: CAPABILITIES, authorization: `Bearer ${caller}` })
}

async function settled(url: URL, taskId: unknown): Promise<Rpc> {
  for (let round = 0; round < 200; round++) {
    const got = await rpc(url, 'tasks/get', { taskId })
    if (got.error !== undefined || ['completed', 'failed'].includes(String(got.result?.status))) return got
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`task ${String(taskId)} did not settle`)
}

const CALL = { name: 'greet_later', arguments: {} }
const ALICE = { action: 'accept', content: { name: 'Alice' } }

async function firstLeg(url: URL): Promise<string> {
  const first = await rpc(url, 'tools/call', CALL)
  expect(first.result?.resultType).toBe('input_required')
  expect(first.result).not.toHaveProperty('taskId')
  expect(Object.keys(first.result?.inputRequests as object)).toStrictEqual(['user_name'])
  return String(first.result?.requestState)
}

describe('a tool that asks before its task', () => {
  it('answers input_required first, becomes a task on the retry, and the task answers from it', async () => {
    const { url, runs } = await served()
    const requestState = await firstLeg(url)
    const task = await rpc(url, 'tools/call', { ...CALL, inputResponses: { user_name: ALICE }, requestState })
    expect(task.result?.resultType).toBe('task')
    expect(task.result).not.toHaveProperty('requestState')
    expect(task.result).not.toHaveProperty('inputRequests')
    const done = await settled(url, task.result?.taskId)
    expect(done.result?.status).toBe('completed')
    expect(done.result?.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Alice!' }] })
    expect(runs).toStrictEqual(['first leg', 'task'])
  })

  it('answers a first leg that asks nothing as a finished task', async () => {
    const { url } = await served()
    const task = await rpc(url, 'tools/call', { name: 'quiet', arguments: {} })
    expect(task.result?.resultType).toBe('task')
    const done = await settled(url, task.result?.taskId)
    expect(done.result?.result).toMatchObject({ content: [{ type: 'text', text: 'Nothing to ask.' }] })
  })

  it('is refused a state used a second time: no second task', async () => {
    const { url, runs } = await served()
    const retry = { ...CALL, inputResponses: { user_name: ALICE }, requestState: await firstLeg(url) }
    expect((await rpc(url, 'tools/call', retry)).result?.resultType).toBe('task')
    expect((await rpc(url, 'tools/call', retry)).error?.code).toBe(-32602)
    expect(runs.filter((run) => run === 'task').length).toBeLessThanOrEqual(1)
  })

  it('is refused a state moved to another caller', async () => {
    const { url } = await served()
    const retry = { ...CALL, inputResponses: { user_name: ALICE }, requestState: await firstLeg(url) }
    expect((await rpc(url, 'tools/call', retry, 'mallory')).error?.code).toBe(-32602)
  })

  it('is refused an answer to a question that was not asked', async () => {
    const { url } = await served()
    const retry = {
      ...CALL,
      inputResponses: { user_name: ALICE, admin: { action: 'accept', content: { name: 'root' } } },
      requestState: await firstLeg(url),
    }
    expect((await rpc(url, 'tools/call', retry)).error?.code).toBe(-32602)
  })

  it('is refused a forged state', async () => {
    const { url } = await served()
    const state = await firstLeg(url)
    const [prefix, body, mac] = state.split('.')
    const payload = JSON.parse(Buffer.from(body ?? '', 'base64url').toString()) as Record<string, unknown>
    const forged = `${prefix}.${Buffer.from(JSON.stringify({ ...payload, round: 0 })).toString('base64url')}.${mac}`
    const retry = { ...CALL, inputResponses: { user_name: ALICE }, requestState: forged }
    expect((await rpc(url, 'tools/call', retry)).error?.code).toBe(-32602)
  })
})
