// A gateway whose source is a 2025-era server (the v1 SDK) that asks its client mid-call, on the session
// (elicitation/create, sampling/createMessage, roots/list): served through createMcpHandler, the question
// goes to the gateway's caller, not the host. A 2025 caller is asked over its own session; a 2026-07-28
// caller gets input_required while the call waits in the gateway, and its retry brings the answer. The
// host's handler answers only where no caller can: a caller without the capability. A held call's state
// replayed, moved to another caller or instance, answering a key not asked, or carrying over 1 MiB of
// answers is refused (invalid params).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../src/stores/create-memory-store.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { serveLegacySource } from './legacy-asking-source.js'
import { serveByBearer } from './serve-fetch.js'
import { MODERN, type Rpc, wireRpc } from './wire-rpc.js'

const closers: Array<() => Promise<unknown>> = []
const KEY = 'a-request-state-key-of-at-least-32-bytes!'
// Shared by every handler of a test, as the key is: a state is claimed once over all of them.
const claims = createMemoryStore()

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {})
})

/** A gateway over the v1 source (named `legacy`), with a host handler that records what it is asked. */
async function gateway(forwardMcpInput = true): Promise<{ url: URL; hostAsked: string[]; toolkit: Toolkit }> {
  const source = await serveLegacySource()
  closers.push(() => source.close())
  const hostAsked: string[] = []
  const toolkit = await createToolkit({
    mcpConfig: { mcpServers: { legacy: { url: source.url } } },
    forwardMcpInput,
    onElicitation: ({ message }) => {
      hostAsked.push(message)
      return { action: 'accept', content: { name: 'the host' } }
    },
  })
  closers.push(() => toolkit.close())
  return { url: await handlerUrl(toolkit), hostAsked, toolkit }
}

/** Another handler (another instance) over `toolkit`, with the same state key. */
function handlerUrl(toolkit: Toolkit): Promise<URL> {
  return serveByBearer(toolkit, closers, { requestStateKey: KEY, claims })
}

/** A v2 SDK client that answers elicitation, sampling and roots; 2026-07-28 when `modern`, else 2025. */
async function client(url: URL, modern: boolean): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = []
  const caller = new Client(
    { name: 'legacy-source-test', version: '1.0.0' },
    {
      capabilities: { elicitation: {}, sampling: {}, roots: {} },
      ...(modern && { versionNegotiation: { mode: { pin: MODERN } } }),
    },
  )
  caller.setRequestHandler('elicitation/create', (request) => {
    asked.push(String(request.params.message))
    return { action: 'accept', content: { name: `caller ${asked.length}` } }
  })
  caller.setRequestHandler('sampling/createMessage', () => ({
    role: 'assistant',
    content: { type: 'text', text: 'hi from the caller' },
    model: 'test-model',
  }))
  caller.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///caller', name: 'caller' }] }))
  await caller.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: 'Bearer alice' } } }),
  )
  closers.push(() => caller.close())
  return { client: caller, asked }
}

function textOf(result: Record<string, unknown> | undefined): string {
  const content = result?.content as Array<{ text?: string }> | undefined
  return content?.map((block) => block.text ?? '').join('') ?? ''
}

describe.each([
  ['a 2026-07-28 caller', true],
  ['a 2025 caller', false],
])('a 2025-era source asks mid-call: the gateway asks %s', (_who, modern) => {
  it('elicitation: the caller is asked, not the host', async () => {
    const { url, hostAsked } = await gateway()
    const { client: caller, asked } = await client(url, modern)
    const result = await caller.callTool({ name: 'legacy_ask_name', arguments: {} })
    expect(textOf(result)).toBe('Hello, caller 1!')
    expect(asked).toStrictEqual(['What is your name?'])
    expect(hostAsked).toStrictEqual([])
  })

  it('two questions in turn, each a round', async () => {
    const { url, hostAsked } = await gateway()
    const { client: caller, asked } = await client(url, modern)
    const result = await caller.callTool({ name: 'legacy_ask_twice', arguments: {} })
    expect(textOf(result)).toBe('caller 1 and caller 2')
    expect(asked).toStrictEqual(['First name?', 'Second name?'])
    expect(hostAsked).toStrictEqual([])
  })

  it('sampling and roots', async () => {
    const { url } = await gateway()
    const { client: caller } = await client(url, modern)
    expect(textOf(await caller.callTool({ name: 'legacy_sample', arguments: {} }))).toBe(
      'Sampled: hi from the caller',
    )
    expect(textOf(await caller.callTool({ name: 'legacy_roots', arguments: {} }))).toBe(
      'Roots: file:///caller',
    )
  })

  it('a prompt that asks while it renders', async () => {
    const { url, hostAsked } = await gateway()
    const { client: caller, asked } = await client(url, modern)
    const prompt = await caller.getPrompt({ name: 'legacy_asking_prompt', arguments: {} })
    expect(prompt.messages[0]?.content).toStrictEqual({ type: 'text', text: 'Write to caller 1.' })
    expect(asked).toStrictEqual(['What is your name?'])
    expect(hostAsked).toStrictEqual([])
  })
})

/** One 2026-07-28 request on the wire from `caller`, declaring `capabilities`. */
function rpc(
  url: URL,
  params: Record<string, unknown>,
  options: { caller?: string; capabilities?: Record<string, unknown> } = {},
): Promise<Rpc> {
  return wireRpc(url, 'tools/call', params, {
    capabilities: options.capabilities ?? { elicitation: {} },
    authorization: `Bearer ${options.caller ?? 'alice'}`,
  })
}

const ASK = { name: 'legacy_ask_name', arguments: {} }
const NAMED = (name: string) => ({ action: 'accept', content: { name } })

async function held(url: URL): Promise<{ key: string; requestState: string }> {
  const first = await rpc(url, ASK)
  expect(first.result?.resultType).toBe('input_required')
  const [key] = Object.keys(first.result?.inputRequests as object)
  return { key: String(key), requestState: String(first.result?.requestState) }
}

describe('a 2026-07-28 caller of a call held for its 2025-era source', () => {
  it('is asked the question the source asked, and the held call ends with the answer', async () => {
    const { url } = await gateway()
    const first = await rpc(url, ASK)
    const requests = first.result?.inputRequests as Record<string, { method: string; params: object }>
    expect(Object.values(requests)).toMatchObject([
      { method: 'elicitation/create', params: { message: 'What is your name?' } },
    ])
    const [key] = Object.keys(requests)
    const done = await rpc(url, {
      ...ASK,
      inputResponses: { [String(key)]: NAMED('Ada') },
      requestState: first.result?.requestState,
    })
    expect(textOf(done.result)).toBe('Hello, Ada!')
  })

  it('is asked without forwardMcpInput too: elicitation is declared for the host handler', async () => {
    const { url, hostAsked } = await gateway(false)
    const { key, requestState } = await held(url)
    const done = await rpc(url, { ...ASK, inputResponses: { [key]: NAMED('Ada') }, requestState })
    expect(textOf(done.result)).toBe('Hello, Ada!')
    expect(hostAsked).toStrictEqual([])
  })

  it('without the capability, the host answers', async () => {
    const { url, hostAsked } = await gateway()
    const answer = await rpc(url, ASK, { capabilities: {} })
    expect(textOf(answer.result)).toBe('Hello, the host!')
    expect(hostAsked).toStrictEqual(['What is your name?'])
  })

  it('is asked again what it left unanswered', async () => {
    const { url } = await gateway()
    const { requestState } = await held(url)
    const again = await rpc(url, { ...ASK, inputResponses: {}, requestState })
    expect(again.result?.resultType).toBe('input_required')
    const [key] = Object.keys(again.result?.inputRequests as object)
    const done = await rpc(url, {
      ...ASK,
      inputResponses: { [String(key)]: NAMED('Grace') },
      requestState: again.result?.requestState,
    })
    expect(textOf(done.result)).toBe('Hello, Grace!')
  })

  it('routes no question while two calls are in flight to the source: the host answers the second', async () => {
    const { url, hostAsked } = await gateway()
    const { key, requestState } = await held(url)
    const second = await rpc(url, ASK, { caller: 'bob' })
    expect(textOf(second.result)).toBe('Hello, the host!')
    expect(hostAsked).toStrictEqual(['What is your name?'])
    const done = await rpc(url, { ...ASK, inputResponses: { [key]: NAMED('Ada') }, requestState })
    expect(textOf(done.result)).toBe('Hello, Ada!')
  })

  it('is refused a state used a second time', async () => {
    const { url } = await gateway()
    const { key, requestState } = await held(url)
    const retry = { ...ASK, inputResponses: { [key]: NAMED('Ada') }, requestState }
    expect(textOf((await rpc(url, retry)).result)).toBe('Hello, Ada!')
    expect((await rpc(url, retry)).error?.code).toBe(-32602)
  })

  it('is refused a forged state (a key added to those asked)', async () => {
    const { url } = await gateway()
    const { key, requestState } = await held(url)
    const [prefix, body, mac] = requestState.split('.')
    const payload = JSON.parse(Buffer.from(String(body), 'base64url').toString()) as { keys: string[] }
    const keys = [...payload.keys, 'extra']
    const forged = `${prefix}.${Buffer.from(JSON.stringify({ ...payload, keys })).toString('base64url')}.${mac}`
    const answers = { [key]: NAMED('Eve'), extra: NAMED('Eve') }
    const refused = await rpc(url, { ...ASK, inputResponses: answers, requestState: forged })
    expect(refused.error?.code).toBe(-32602)
  })

  it('is refused a state moved to another caller', async () => {
    const { url } = await gateway()
    const { key, requestState } = await held(url)
    const moved = await rpc(
      url,
      { ...ASK, inputResponses: { [key]: NAMED('Eve') }, requestState },
      {
        caller: 'mallory',
      },
    )
    expect(moved.error?.code).toBe(-32602)
  })

  it('is refused a state whose call is held by another instance', async () => {
    const { url, toolkit } = await gateway()
    const other = await handlerUrl(toolkit)
    const { key, requestState } = await held(url)
    const elsewhere = await rpc(other, { ...ASK, inputResponses: { [key]: NAMED('Ada') }, requestState })
    expect(elsewhere.error?.code).toBe(-32602)
  })

  it('is refused an answer to a question that was not asked', async () => {
    const { url } = await gateway()
    const { key, requestState } = await held(url)
    const extra = await rpc(url, {
      ...ASK,
      inputResponses: { [key]: NAMED('Ada'), elicitation_999: NAMED('Mallory') },
      requestState,
    })
    expect(extra.error?.code).toBe(-32602)
  })

  it('is refused answers over 1 MiB', async () => {
    const { url } = await gateway()
    const { key, requestState } = await held(url)
    const big = await rpc(url, {
      ...ASK,
      inputResponses: { [key]: NAMED('x'.repeat(1_100_000)) },
      requestState,
    })
    expect(big.error?.code).toBe(-32602)
  })
})
