// A toolkit's `longRunning` tools served as MCP tasks to 2026-07-28 requests: created at once, polled
// with tasks/get, cancelled, approvals asked inside the task, and the store bounded and bound to the
// caller. The v2 SDK's Client refuses a `resultType: 'task'` answer, so the calls are made on the wire.

import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpHandler, type McpHandlerOptions } from '../../src/mcp-server/create-mcp-handler.js'
import { TaskStore } from '../../src/mcp-server/task-store.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { wrappedToolkit } from '../support/wrapped-toolkit.js'
import { reportTool } from './report-tool.js'
import { serveFetch } from './serve-fetch.js'
import { envelope, MODERN, type Rpc, wireRpc } from './wire-rpc.js'

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } }
const closers: Array<() => Promise<unknown>> = []

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {})
})

const STDIO_CHILD = fileURLToPath(new URL('./serve-tasks-stdio-child.ts', import.meta.url))

/** One 2026-07-28 request on the wire; it declares tasks unless told otherwise. */
function rpc(
  url: URL,
  method: string,
  params: Record<string, unknown>,
  options: { capabilities?: Record<string, unknown>; authorization?: string } = {},
): Promise<Rpc> {
  return wireRpc(url, method, params, { ...options, capabilities: options.capabilities ?? TASKS })
}

/** Polls tasks/get until the task leaves `working` (or `until`), within a generous bound. */
async function settled(url: URL, taskId: unknown, until: string[] = ['completed', 'failed', 'cancelled']) {
  for (let round = 0; round < 200; round++) {
    const got = await rpc(url, 'tasks/get', { taskId })
    if (got.error !== undefined || until.includes(String(got.result?.status))) return got
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`task ${String(taskId)} did not settle`)
}

/** Served with `authorize: () => true` unless `options` sets it (to `undefined`: none). */
async function served(
  options: Omit<McpHandlerOptions, 'authorize'> & {
    authorize?: McpHandlerOptions['authorize'] | undefined
  } = {},
  wrap: (toolkit: Toolkit) => Toolkit = (toolkit) => toolkit,
): Promise<{ url: URL; ran: string[] }> {
  const ran: string[] = []
  let release: () => void = () => {}
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  const toolkit = await createToolkit({
    logger: { warn: () => {} },
    tools: [
      reportTool(100, async (month, { signal }) => {
        if (month === 'hold')
          await new Promise((_resolve, reject) => signal?.addEventListener('abort', reject))
        ran.push(month)
      }),
      defineTool({
        name: 'wipe',
        description: 'Wipes a disk once approved.',
        longRunning: { required: true },
        needsApproval: true,
        execute: () => {
          ran.push('wipe')
          return 'Wiped.'
        },
      }),
      defineTool({
        name: 'wait_forever',
        description: 'Finishes only when released.',
        longRunning: true,
        execute: () => gate.then(() => 'released'),
      }),
    ],
  })
  closers.push(async () => {
    release()
    await toolkit.close()
  })
  const server = await serveFetch(createMcpHandler({ toolkit: wrap(toolkit), ...handlerOptions(options) }))
  closers.push(() => server.close())
  return { url: new URL(`${server.url}/mcp`), ran }
}

function handlerOptions(options: Parameters<typeof served>[0] = {}): McpHandlerOptions {
  const { authorize, ...rest } = options
  if ('authorize' in options) return authorize === undefined ? rest : { ...rest, authorize }
  return { ...rest, authorize: () => true }
}

describe('a longRunning tool served as a task', () => {
  it('is created at once, polled with tasks/get and completes with the result inline', async () => {
    const { url } = await served()
    const created = await rpc(url, 'tools/call', { name: 'report', arguments: { month: 'May' } })
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 1000 })
    expect(String(created.result?.taskId)).toMatch(/^[\w-]{22}$/)
    const done = await settled(url, created.result?.taskId)
    expect([done.result?.status, done.result?.result]).toStrictEqual([
      'completed',
      { content: [{ type: 'text', text: 'Report for May.' }] },
    ])
  })

  it('runs at once for a client without the tasks extension, and a required one is refused', async () => {
    const { url, ran } = await served()
    const plain = await rpc(
      url,
      'tools/call',
      { name: 'report', arguments: { month: 'June' } },
      { capabilities: {} },
    )
    expect(plain.result?.content).toStrictEqual([{ type: 'text', text: 'Report for June.' }])
    const refused = await rpc(url, 'tools/call', { name: 'wipe', arguments: {} }, { capabilities: {} })
    expect(refused.error?.code).toBe(-32021)
    expect(ran).toStrictEqual(['June'])
  })

  it('asks its approval inside the task: input_required until tasks/update answers it', async () => {
    const { url, ran } = await served()
    const capabilities = { elicitation: {}, ...TASKS }
    const created = await rpc(url, 'tools/call', { name: 'wipe', arguments: {} }, { capabilities })
    const taskId = created.result?.taskId
    const asking = await settled(url, taskId, ['input_required'])
    expect(Object.keys(asking.result?.inputRequests as object)).toStrictEqual(['approval'])
    expect(ran).toStrictEqual([])
    const ack = await rpc(url, 'tasks/update', {
      taskId,
      inputResponses: { approval: { action: 'accept', content: { approve: true } } },
    })
    expect([ack.result?.resultType, 'status' in (ack.result ?? {})]).toStrictEqual(['complete', false])
    expect((await settled(url, taskId)).result?.status).toBe('completed')
    expect(ran).toStrictEqual(['wipe'])
  })

  it('without authorize, a task a Toolkit made elsewhere holds for approval is refused: never asked, never run', async () => {
    // Its own approval rule covers `report`, which has none itself, so the report is served.
    const holdsReports = (inner: Toolkit) =>
      wrappedToolkit(inner, { checkCall: undefined, needsApproval: (name) => name === 'report' })
    const { url, ran } = await served({ authorize: undefined }, holdsReports)
    const capabilities = { elicitation: {}, ...TASKS }
    const created = await rpc(
      url,
      'tools/call',
      { name: 'report', arguments: { month: 'May' } },
      { capabilities },
    )
    const done = await settled(url, created.result?.taskId, [
      'completed',
      'failed',
      'cancelled',
      'input_required',
    ])
    expect(done.result?.status).toBe('completed')
    expect(done.result?.result).toMatchObject({ isError: true })
    expect(JSON.stringify(done.result?.result)).toContain('`authorize`')
    expect(ran).toStrictEqual([])
  })

  it('is cancelled by tasks/cancel: the tool is aborted and its result never lands', async () => {
    const { url, ran } = await served()
    const created = await rpc(url, 'tools/call', { name: 'report', arguments: { month: 'hold' } })
    const taskId = created.result?.taskId
    expect((await rpc(url, 'tasks/cancel', { taskId })).result?.resultType).toBe('complete')
    const after = await rpc(url, 'tasks/get', { taskId })
    expect([after.result?.status, 'result' in (after.result ?? {})]).toStrictEqual(['cancelled', false])
    expect(ran).toStrictEqual([])
  })

  it('is served over stdio: created, then polled to its result', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', STDIO_CHILD], {
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    closers.push(async () => {
      child.kill()
    })
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
    let id = 0
    const ask = async (method: string, params: Record<string, unknown>): Promise<Rpc> => {
      id++
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope(TASKS) } })}\n`,
      )
      for (;;) {
        const { value, done } = await lines.next()
        if (done) throw new Error('the server closed its output')
        const message = JSON.parse(String(value)) as Rpc & { id?: number }
        if (message.id === id) return message
      }
    }
    const created = await ask('tools/call', { name: 'report', arguments: { month: 'July' } })
    expect(created.result?.resultType).toBe('task')
    let got: Rpc = created
    for (let round = 0; round < 200 && got.result?.status !== 'completed'; round++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      got = await ask('tasks/get', { taskId: created.result?.taskId })
    }
    expect(got.result?.result).toStrictEqual({ content: [{ type: 'text', text: 'Report for July.' }] })
  })

  it('is advertised in server/discover to a v2 SDK client', async () => {
    const { url } = await served()
    const client = new ModernClient(
      { name: 'modern-test-client', version: '1.0.0' },
      { capabilities: TASKS, versionNegotiation: { mode: { pin: MODERN } } },
    )
    closers.push(() => client.close())
    await client.connect(new ModernHttpTransport(url))
    expect(client.getServerCapabilities()?.extensions).toStrictEqual({ 'io.modelcontextprotocol/tasks': {} })
  })
})

describe('task security', () => {
  it.each([
    ['another token', { authorize: () => true }, 'Bearer bob'],
    [
      'another principal',
      { authorize: (request: Request) => request.headers.get('authorization') ?? false },
      'Bearer bob',
    ],
  ])('refuses a task id to %s: get, update and cancel read it as unknown', async (_who, options, other) => {
    const { url } = await served(options)
    const alice = { authorization: 'Bearer alice' }
    const created = await rpc(url, 'tools/call', { name: 'wait_forever', arguments: {} }, alice)
    const taskId = created.result?.taskId
    const asBob = (method: string) =>
      rpc(url, method, { taskId, inputResponses: {} }, { authorization: other })
    const answers = await Promise.all(['tasks/get', 'tasks/update', 'tasks/cancel'].map(asBob))
    expect(answers.map((answer) => answer.error?.code)).toStrictEqual([-32602, -32602, -32602])
    const mine = await rpc(url, 'tasks/get', { taskId }, alice)
    expect(mine.result?.status).toBe('working')
  })

  it('keeps at most maxTasks: with every task running, a new one is refused', async () => {
    const { url } = await served({ maxTasks: 2 })
    const calls = await Promise.all(
      [1, 2, 3].map(() => rpc(url, 'tools/call', { name: 'wait_forever', arguments: {} })),
    )
    expect(calls.map((call) => call.result?.resultType ?? call.error?.message)).toStrictEqual(
      expect.arrayContaining(['task', 'task', 'Too many tasks running: try again later.']),
    )
  })

  it.each([
    ['a finished task is dropped to make room', 'finish'],
    ['a task past its time to live is gone', 'expire'],
  ])('bounds the store: %s', (_how, how) => {
    const store = new TaskStore({ maxTasks: 1, ttlMs: 1000 })
    const first = store.create('alice', 0)
    if (first === undefined) throw new Error('no task')
    if (how === 'finish') first.status = 'completed'
    const at = how === 'finish' ? 10 : 1000
    const second = store.create('alice', at)
    expect([second === undefined, store.find(first.id, 'alice', at), store.size]).toStrictEqual([
      false,
      undefined,
      1,
    ])
    expect(first.controller.signal.aborted).toBe(how === 'expire')
  })
})

it.each([[{ timeoutMs: -1 }], [{ timeoutMs: 'soon' }], ['yes']])(
  'defineTool refuses longRunning %j',
  (longRunning) => {
    const define = () =>
      defineTool({ name: 'bad', description: 'x', longRunning: longRunning as never, execute: () => 'x' })
    expect(define).toThrow(
      'longRunning must be true or { required?: boolean, timeoutMs?: number > 0, inputFirst?: boolean }',
    )
  },
)
