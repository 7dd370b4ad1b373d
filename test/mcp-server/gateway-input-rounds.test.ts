// A gateway whose source server (the v2 SDK, over HTTP) asks for input mid-call passes the questions to
// its own caller: a 2026-07-28 caller gets input_required with the gateway's sealed, one-time state and
// retries; a 2025 caller is asked on its session. A state that was tampered with, replayed, moved to
// other arguments or another caller, or that answers keys it did not ask, is refused (invalid params);
// too many rounds or questions end the call. Inside a task, the task asks.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import { defineTool } from '../../src/tool/define-tool.js'
import type { ApprovalPolicy } from '../../src/toolkit/approval-policy.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { serveSource } from './conformance-source.js'
import { serveByBearer } from './serve-fetch.js'
import { MODERN, type Rpc, wireRpc } from './wire-rpc.js'

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } }
const closers: Array<() => Promise<unknown>> = []

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {})
})

/** The gateway over the test source (named `test`); the caller is named by its bearer token. */
async function gateway(approval?: ApprovalPolicy): Promise<{ url: URL; hostAsked: string[] }> {
  const source = await serveSource()
  closers.push(() => source.close())
  const hostAsked: string[] = []
  let served: Toolkit | undefined
  const toolkit = await createToolkit({
    mcpConfig: { mcpServers: { test: { url: `${source.url}/mcp` } } },
    ...(approval !== undefined && { approval }),
    // The host's own handler: questions of a served call must not reach it.
    onElicitation: ({ message }) => {
      hostAsked.push(message)
      return { action: 'decline' }
    },
    tools: [
      // A long-running call whose source asks: served as a task, its questions asked through the task.
      defineTool({
        name: 'elicit_in_task',
        description: 'Calls test_elicitation as a long-running call.',
        inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
        longRunning: true,
        execute: async (args, context) => {
          const result = await served?.execute('test_elicitation', args, {
            ...(context.inputRound !== undefined && { inputRound: context.inputRound }),
          })
          return result ?? 'no toolkit'
        },
      }),
    ],
  })
  served = toolkit
  closers.push(() => toolkit.close())
  return { url: await serveByBearer(toolkit, closers), hostAsked }
}

/** One 2026-07-28 request on the wire, from the caller its bearer token names (alice unless told). */
function rpc(
  url: URL,
  params: Record<string, unknown>,
  options: { method?: string; capabilities?: Record<string, unknown>; caller?: string } = {},
): Promise<Rpc> {
  return wireRpc(url, options.method ?? 'tools/call', params, {
    capabilities: options.capabilities ?? { elicitation: {} },
    authorization: `Bearer ${options.caller ?? 'alice'}`,
  })
}

const ACCEPTED = { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } }
const ASK = { name: 'test_elicitation', arguments: { message: 'Who are you?' } }

/** The first round of test_elicitation: the gateway's input_required answer. */
async function firstRound(
  url: URL,
): Promise<{ inputRequests: Record<string, unknown>; requestState: string }> {
  const first = await rpc(url, ASK)
  expect(first.result?.resultType).toBe('input_required')
  return first.result as { inputRequests: Record<string, unknown>; requestState: string }
}

function textOf(result: Record<string, unknown> | undefined): string {
  const content = result?.content as Array<{ text?: string }> | undefined
  return content?.map((block) => block.text ?? '').join('') ?? ''
}

/** A v2 SDK client that answers every kind of input request; 2026-07-28 when `modern`, else 2025. */
async function client(url: URL, modern: boolean): Promise<{ client: Client; asked: unknown[] }> {
  const asked: unknown[] = []
  const caller = new Client(
    { name: 'input-test', version: '1.0.0' },
    {
      capabilities: { elicitation: {}, sampling: {}, roots: {} },
      ...(modern && { versionNegotiation: { mode: { pin: MODERN } } }),
    },
  )
  caller.setRequestHandler('elicitation/create', (request) => {
    asked.push(request.params)
    return { action: 'accept', content: { username: 'ada', email: 'ada@example.com', answer: 'yes' } }
  })
  caller.setRequestHandler('sampling/createMessage', (request) => {
    asked.push(request.params)
    return { role: 'assistant', content: { type: 'text', text: 'a sampled answer' }, model: 'test-model' }
  })
  caller.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }))
  await caller.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: 'Bearer alice' } } }),
  )
  closers.push(() => caller.close())
  return { client: caller, asked }
}

describe.each([
  ['a 2026-07-28 caller', true],
  ['a 2025 caller', false],
])("a gateway passes its source's questions to %s", (_who, modern) => {
  it('elicitation: the caller is asked, not the host, and the source gets the answer', async () => {
    const { url, hostAsked } = await gateway()
    const { client: caller, asked } = await client(url, modern)
    const result = await caller.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } })
    expect(textOf(result)).toBe(
      'User response: action=accept, content={"username":"ada","email":"ada@example.com","answer":"yes"}',
    )
    expect(asked).toMatchObject([{ message: 'Who are you?' }])
    expect(hostAsked).toStrictEqual([])
  })

  it('sampling and roots', async () => {
    const { url } = await gateway()
    const { client: caller } = await client(url, modern)
    const sampled = await caller.callTool({ name: 'test_sampling', arguments: { prompt: 'Say hi' } })
    expect(textOf(sampled)).toBe('LLM response: a sampled answer')
    const roots = await caller.callTool({ name: 'test_list_roots', arguments: {} })
    expect(textOf(roots)).toBe('Roots: file:///work')
  })

  it('several rounds of several questions, each round answered', async () => {
    const { url } = await gateway()
    const { client: caller, asked } = await client(url, modern)
    const result = await caller.callTool({ name: 'test_ask_rounds', arguments: { rounds: 3, questions: 2 } })
    expect(textOf(result)).toBe('After 3 rounds: ["yes","yes"]')
    expect(asked).toHaveLength(6)
  })
})

describe('a 2026-07-28 caller of a gateway whose source asks', () => {
  it("gets the gateway's own sealed state, not the source's", async () => {
    const { url } = await gateway()
    const first = await rpc(url, { name: 'test_ask_rounds', arguments: { rounds: 1, questions: 1 } })
    const state = String(first.result?.requestState)
    expect(state.startsWith('tnf1.')).toBe(true)
    expect(state).not.toBe('round:1')
    const done = await rpc(url, {
      name: 'test_ask_rounds',
      arguments: { rounds: 1, questions: 1 },
      inputResponses: { q0: { action: 'accept', content: { answer: 'x' } } },
      requestState: state,
    })
    expect(textOf(done.result)).toBe('After 1 rounds: ["x"]')
  })

  it('is refused a state that was tampered with, and nothing of it is echoed', async () => {
    const { url } = await gateway()
    const { requestState } = await firstRound(url)
    const body = requestState.split('.')[1] ?? ''
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>
    const forged = `tnf1.${Buffer.from(JSON.stringify({ ...payload, round: 0 })).toString('base64url')}.${requestState.split('.')[2]}`
    const refused = await rpc(url, { ...ASK, inputResponses: { form: ACCEPTED }, requestState: forged })
    expect(refused.error?.code).toBe(-32602)
    expect(JSON.stringify(refused.error)).not.toContain(body.slice(0, 20))
  })

  it('is refused a state used a second time', async () => {
    const { url } = await gateway()
    const { requestState } = await firstRound(url)
    const retry = { ...ASK, inputResponses: { form: ACCEPTED }, requestState }
    expect(textOf((await rpc(url, retry)).result)).toContain('User response: action=accept')
    expect((await rpc(url, retry)).error?.code).toBe(-32602)
  })

  it('is refused a state moved to other arguments or another tool', async () => {
    const { url } = await gateway()
    const { requestState } = await firstRound(url)
    const otherArgs = await rpc(url, {
      name: 'test_elicitation',
      arguments: { message: 'Something else' },
      inputResponses: { form: ACCEPTED },
      requestState,
    })
    expect(otherArgs.error?.code).toBe(-32602)
    const otherTool = await rpc(url, {
      name: 'test_elicitation_sep1034_defaults',
      arguments: {},
      inputResponses: { form: ACCEPTED },
      requestState: (await firstRound(url)).requestState,
    })
    expect(otherTool.error?.code).toBe(-32602)
  })

  it('is refused a state moved to another caller', async () => {
    const { url } = await gateway()
    const { requestState } = await firstRound(url)
    const moved = await rpc(
      url,
      { ...ASK, inputResponses: { form: ACCEPTED }, requestState },
      { caller: 'mallory' },
    )
    expect(moved.error?.code).toBe(-32602)
  })

  it('is refused answers to questions that were not asked', async () => {
    const { url } = await gateway()
    const { requestState } = await firstRound(url)
    const extra = await rpc(url, {
      ...ASK,
      inputResponses: { form: ACCEPTED, approval: { action: 'accept', content: { approve: true } } },
      requestState,
    })
    expect(extra.error?.code).toBe(-32602)
  })

  it('ends a call whose source asks more than eight rounds', async () => {
    const { url } = await gateway()
    const call = { name: 'test_ask_rounds', arguments: { rounds: 20, questions: 1 } }
    let answer = await rpc(url, call)
    let rounds = 0
    while (answer.result?.resultType === 'input_required' && rounds < 20) {
      rounds++
      answer = await rpc(url, {
        ...call,
        inputResponses: { q0: { action: 'accept', content: { answer: 'again' } } },
        requestState: answer.result.requestState,
      })
    }
    expect(rounds).toBe(8)
    expect(answer.result?.isError).toBe(true)
    expect(textOf(answer.result)).toContain('more than 8 times')
  })

  it('ends a call whose source hands out a state too large to seal (over 16 KB)', async () => {
    const { url } = await gateway()
    const call = { name: 'test_ask_rounds', arguments: { rounds: 1, questions: 1, pad: 11_000 } }
    const fits = await rpc(url, call)
    expect(fits.result?.resultType).toBe('input_required')
    const answer = await rpc(url, { ...call, arguments: { ...call.arguments, pad: 20_000 } })
    expect(answer.result?.resultType).not.toBe('input_required')
    expect(textOf(answer.result)).toContain('too large')
  })

  it('asks an approval once: the retries of its forwarded rounds are not asked again', async () => {
    const { url } = await gateway({ tools: ['test_elicitation'] })
    const approval = await rpc(url, ASK)
    expect(Object.keys(approval.result?.inputRequests as object)).toStrictEqual(['approval'])
    const approved = await rpc(url, {
      ...ASK,
      inputResponses: { approval: { action: 'accept', content: { approve: true } } },
      requestState: approval.result?.requestState,
    })
    expect(Object.keys(approved.result?.inputRequests as object)).toStrictEqual(['form'])
    const done = await rpc(url, {
      ...ASK,
      inputResponses: { form: ACCEPTED },
      requestState: approved.result?.requestState,
    })
    expect(textOf(done.result)).toContain('User response: action=accept')
  })

  it('ends a call whose source asks more than sixteen questions at once', async () => {
    const { url } = await gateway()
    const answer = await rpc(url, { name: 'test_ask_rounds', arguments: { rounds: 1, questions: 17 } })
    expect(answer.result?.resultType).not.toBe('input_required')
    expect(answer.result?.isError).toBe(true)
    expect(textOf(answer.result)).toContain('at most 16')
  })

  it('offers the source only what the caller can answer: a caller without it gets -32021', async () => {
    const { url, hostAsked } = await gateway()
    const answer = await rpc(url, ASK, { capabilities: { sampling: {} } })
    expect(answer.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } })
    const sampling = await rpc(url, { name: 'test_missing_capability', arguments: {} }, { capabilities: {} })
    expect(sampling.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } })
    expect(hostAsked).toStrictEqual([])
  })

  it('a 2025 caller without the capability gets an error result, not a hang', async () => {
    const { url, hostAsked } = await gateway()
    const caller = new Client({ name: 'no-caps', version: '1.0.0' }, { capabilities: {} })
    await caller.connect(new StreamableHTTPClientTransport(url))
    closers.push(() => caller.close())
    const result = await caller.callTool({ name: 'test_elicitation', arguments: { message: 'Who?' } })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain('capabilit')
    expect(hostAsked).toStrictEqual([])
  })

  it("asks a task's source questions through the task", async () => {
    const { url, hostAsked } = await gateway()
    const capabilities = { elicitation: {}, ...TASKS }
    const created = await rpc(
      url,
      { name: 'elicit_in_task', arguments: { message: 'Inside a task?' } },
      { capabilities },
    )
    const taskId = created.result?.taskId
    expect(created.result?.resultType).toBe('task')
    const get = () => rpc(url, { taskId }, { method: 'tasks/get', capabilities })
    let state = await get()
    for (let poll = 0; poll < 200 && state.result?.status === 'working'; poll++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      state = await get()
    }
    expect(state.result?.status).toBe('input_required')
    expect(state.result?.inputRequests).toMatchObject({ form: { method: 'elicitation/create' } })
    await rpc(url, { taskId, inputResponses: { form: ACCEPTED } }, { method: 'tasks/update', capabilities })
    for (let poll = 0; poll < 200 && state.result?.status !== 'completed'; poll++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      state = await get()
    }
    expect(textOf(state.result?.result as Record<string, unknown>)).toContain('User response: action=accept')
    expect(hostAsked).toStrictEqual([])
  })
})
