// A gateway whose source (the v2 SDK, over HTTP) asks for input while it renders a prompt or reads a
// resource puts the question to its own caller, as it does for a tool call: a 2026-07-28 caller gets
// input_required with the gateway's sealed, one-time state and retries; a 2025 caller is asked on its
// session. A state replayed, moved to another caller or request, answering a key that was not asked, or
// carrying answers over 1 MiB is refused (invalid params).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { serveSource } from './conformance-source.js'
import { serveByBearer } from './serve-fetch.js'
import { MODERN, type Rpc, wireRpc } from './wire-rpc.js'

const closers: Array<() => Promise<unknown>> = []

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {})
})

/** The gateway over the test source (named `test`); the caller is named by its bearer token. */
async function gateway(): Promise<{ url: URL; hostAsked: string[] }> {
  const source = await serveSource()
  closers.push(() => source.close())
  const hostAsked: string[] = []
  const toolkit = await createToolkit({
    mcpConfig: { mcpServers: { test: { url: `${source.url}/mcp` } } },
    // The host's own handler: questions of a served request must not reach it.
    onElicitation: ({ message }) => {
      hostAsked.push(message)
      return { action: 'accept', content: { context: 'from the host', name: 'the host' } }
    },
  })
  closers.push(() => toolkit.close())
  return { url: await serveByBearer(toolkit, closers), hostAsked }
}

/** A v2 SDK client that answers elicitation; 2026-07-28 when `modern`, else 2025. */
async function client(url: URL, modern: boolean): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = []
  const caller = new Client(
    { name: 'request-rounds-test', version: '1.0.0' },
    {
      capabilities: { elicitation: {} },
      ...(modern && { versionNegotiation: { mode: { pin: MODERN } } }),
    },
  )
  caller.setRequestHandler('elicitation/create', (request) => {
    asked.push(String(request.params.message))
    return { action: 'accept', content: { context: 'from the caller', name: 'the caller' } }
  })
  await caller.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: 'Bearer alice' } } }),
  )
  closers.push(() => caller.close())
  return { client: caller, asked }
}

const PROMPT = { name: 'test_input_required_result_prompt', arguments: {} }
const READ = { uri: 'test://asking' }
const CONTEXT = { action: 'accept', content: { context: 'on the wire' } }

function rpc(url: URL, method: string, params: Record<string, unknown>, caller = 'alice'): Promise<Rpc> {
  return wireRpc(url, method, params, {
    capabilities: { elicitation: {} },
    authorization: `Bearer ${caller}`,
  })
}

async function promptRound(url: URL): Promise<string> {
  const first = await rpc(url, 'prompts/get', PROMPT)
  expect(first.result?.resultType).toBe('input_required')
  expect(Object.keys(first.result?.inputRequests as object)).toStrictEqual(['user_context'])
  return String(first.result?.requestState)
}

function promptText(result: Record<string, unknown> | undefined): string {
  const messages = result?.messages as Array<{ content: { text?: string } }> | undefined
  return messages?.map((message) => message.content.text ?? '').join('') ?? ''
}

describe.each([
  ['a 2026-07-28 caller', true],
  ['a 2025 caller', false],
])("a gateway passes its source's questions on prompts and resources to %s", (_who, modern) => {
  it('prompts/get: the caller is asked, not the host, and the prompt renders from the answer', async () => {
    const { url, hostAsked } = await gateway()
    const { client: caller, asked } = await client(url, modern)
    const prompt = await caller.getPrompt(PROMPT)
    expect(prompt.messages[0]?.content).toStrictEqual({
      type: 'text',
      text: 'Context: from the caller (state context-asked)',
    })
    expect(asked).toStrictEqual(['What context should the prompt use?'])
    expect(hostAsked).toStrictEqual([])
  })

  it('resources/read: the caller is asked, not the host', async () => {
    const { url, hostAsked } = await gateway()
    const { client: caller, asked } = await client(url, modern)
    const read = await caller.readResource(READ)
    expect(read.contents).toStrictEqual([
      { uri: 'test://asking', mimeType: 'text/plain', text: 'Read by the caller.' },
    ])
    expect(asked).toStrictEqual(['Who is reading?'])
    expect(hostAsked).toStrictEqual([])
  })
})

describe('a 2026-07-28 caller of a prompt or resource whose source asks', () => {
  it("gets the gateway's sealed state (not the source's) and renders from the answer", async () => {
    const { url } = await gateway()
    const requestState = await promptRound(url)
    expect(requestState.startsWith('tnf1.')).toBe(true)
    expect(requestState).not.toContain('context-asked')
    const done = await rpc(url, 'prompts/get', {
      ...PROMPT,
      inputResponses: { user_context: CONTEXT },
      requestState,
    })
    expect(promptText(done.result)).toBe('Context: on the wire (state context-asked)')
  })

  it('is refused a forged state', async () => {
    const { url } = await gateway()
    const [prefix, body, mac] = (await promptRound(url)).split('.')
    const payload = JSON.parse(Buffer.from(String(body), 'base64url').toString()) as Record<string, unknown>
    const forged = `${prefix}.${Buffer.from(JSON.stringify({ ...payload, keys: ['user_context', 'admin'] })).toString('base64url')}.${mac}`
    const refused = await rpc(url, 'prompts/get', {
      ...PROMPT,
      inputResponses: { user_context: CONTEXT },
      requestState: forged,
    })
    expect(refused.error?.code).toBe(-32602)
  })

  it('is refused a state used a second time', async () => {
    const { url } = await gateway()
    const retry = {
      ...PROMPT,
      inputResponses: { user_context: CONTEXT },
      requestState: await promptRound(url),
    }
    expect(promptText((await rpc(url, 'prompts/get', retry)).result)).toContain('on the wire')
    expect((await rpc(url, 'prompts/get', retry)).error?.code).toBe(-32602)
  })

  it('is refused a state moved to another caller', async () => {
    const { url } = await gateway()
    const retry = {
      ...PROMPT,
      inputResponses: { user_context: CONTEXT },
      requestState: await promptRound(url),
    }
    expect((await rpc(url, 'prompts/get', retry, 'mallory')).error?.code).toBe(-32602)
  })

  it("is refused a prompt's state on a read, and a read's on a prompt", async () => {
    const { url } = await gateway()
    const onRead = await rpc(url, 'resources/read', {
      ...READ,
      inputResponses: { user_context: CONTEXT },
      requestState: await promptRound(url),
    })
    expect(onRead.error?.code).toBe(-32602)
    const read = await rpc(url, 'resources/read', READ)
    expect(read.result?.resultType).toBe('input_required')
    const onPrompt = await rpc(url, 'prompts/get', {
      ...PROMPT,
      inputResponses: { reader: CONTEXT },
      requestState: read.result?.requestState,
    })
    expect(onPrompt.error?.code).toBe(-32602)
  })

  it("is refused a tool call's state on a prompt", async () => {
    const { url } = await gateway()
    const call = await rpc(url, 'tools/call', { name: 'test_elicitation', arguments: { message: 'Hi?' } })
    expect(call.result?.resultType).toBe('input_required')
    const moved = await rpc(url, 'prompts/get', {
      ...PROMPT,
      inputResponses: { user_context: CONTEXT },
      requestState: call.result?.requestState,
    })
    expect(moved.error?.code).toBe(-32602)
  })

  it('is refused an answer to a question that was not asked', async () => {
    const { url } = await gateway()
    const extra = await rpc(url, 'prompts/get', {
      ...PROMPT,
      inputResponses: { user_context: CONTEXT, approval: { action: 'accept', content: { approve: true } } },
      requestState: await promptRound(url),
    })
    expect(extra.error?.code).toBe(-32602)
  })

  it('is refused answers over 1 MiB', async () => {
    const { url } = await gateway()
    const big = { action: 'accept', content: { context: 'x'.repeat(1_100_000) } }
    const refused = await rpc(url, 'prompts/get', {
      ...PROMPT,
      inputResponses: { user_context: big },
      requestState: await promptRound(url),
    })
    expect(refused.error?.code).toBe(-32602)
  })

  it('a caller without elicitation gets -32021, and the host is not asked', async () => {
    const { url, hostAsked } = await gateway()
    const refused = await wireRpc(url, 'prompts/get', PROMPT, {
      capabilities: {},
      authorization: 'Bearer alice',
    })
    expect(refused.error?.code).toBe(-32021)
    expect(hostAsked).toStrictEqual([])
  })
})
