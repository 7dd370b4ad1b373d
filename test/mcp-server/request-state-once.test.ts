// A request state the MCP server hands out (a forwarded round of input, an approval question) runs its
// call once, on any number of instances: two createMcpHandler processes sharing one key and one real
// Redis (and one real Postgres) as `claims` refuse a state the other took, sent after it or at the same
// moment, and the tool runs once (each instance counts its runs). The in-memory default does the same on
// one instance, a memory store shared by two handlers in one process too; a shared key without `claims`
// is refused when the handler is made, and a failing claim store runs nothing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BoundedClaims } from '../../src/approvals/process-claims.js'
import { ConfigError } from '../../src/errors.js'
import { claimRequestState } from '../../src/mcp-server/claim-request-state.js'
import { createMcpHandler } from '../../src/mcp-server/create-mcp-handler.js'
import { serveStdio } from '../../src/mcp-server/serve-stdio.js'
import type { ClaimStore } from '../../src/shared/claim-store.js'
import { createMemoryStore } from '../../src/stores/create-memory-store.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { type NodeWorker, startNodeWorker } from '../support/node-worker.js'
import { sharedStores } from '../support/shared-stores.js'
import { onceTools, type RunCounts } from './fixtures/once-tools.js'
import { serveFetch } from './serve-fetch.js'
import { type Rpc, wireRpc } from './wire-rpc.js'

const cases = sharedStores('the request-state claim test')
const closers: Array<() => Promise<unknown>> = []

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {})
})

/** A key every instance of one test shares, as a deployment's secret. */
function stateKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('')
}

/** The two ways a state runs a call: a round of input answered, an approval given. */
const STATES = [
  {
    what: 'a forwarded round of input',
    call: { name: 'greet', arguments: {} },
    answers: { name: { action: 'accept', content: { name: 'Ada' } } },
    tool: 'greet' as const,
  },
  {
    what: 'an approval',
    call: { name: 'wipe_disk', arguments: { disk: 'sda' } },
    answers: { approval: { action: 'accept', content: { approve: true } } },
    tool: 'wipe' as const,
  },
]

type StateCase = (typeof STATES)[number]

function rpc(url: URL, params: Record<string, unknown>): Promise<Rpc> {
  return wireRpc(url, 'tools/call', params, {
    capabilities: { elicitation: {} },
    authorization: 'Bearer alice',
  })
}

/** The first round of a call: its input_required answer's state. */
async function stateOf(url: URL, state: StateCase): Promise<string> {
  const first = await rpc(url, state.call)
  expect(first.result?.resultType).toBe('input_required')
  return String(first.result?.requestState)
}

/** The retry that answers a round: the call again, with the answers and the state. */
function retry(url: URL, state: StateCase, requestState: string): Promise<Rpc> {
  return rpc(url, { ...state.call, inputResponses: state.answers, requestState })
}

function textOf(answer: Rpc): string {
  const content = answer.result?.content as Array<{ text?: string }> | undefined
  return content?.map((block) => block.text ?? '').join('') ?? ''
}

/** What a replay is answered, on any instance. */
const REPLAYED = { code: -32602, message: expect.stringContaining('used already') }

describe.each(cases)('two createMcpHandler processes over one $name store', (kind) => {
  let workers: NodeWorker[] = []
  let urls: URL[] = []
  let ports: number[] = []

  beforeAll(async () => {
    if (!kind.available) return
    const env = { STORE: kind.store, STORE_URL: kind.url(), STATE_KEY: stateKey() }
    const file = new URL('./fixtures/mcp-instance.ts', import.meta.url)
    workers = [startNodeWorker(file, env), startNodeWorker(file, env)]
    const started = await Promise.all(workers.map((worker) => worker.nextLine()))
    ports = started.map((line) => (JSON.parse(line) as { port: number }).port)
    urls = ports.map((port) => new URL(`http://127.0.0.1:${port}/mcp`))
  }, 120_000)

  afterAll(() => {
    for (const worker of workers) worker.kill()
  })

  /** How many times `tool` has run on each instance. */
  const runs = async (tool: keyof RunCounts): Promise<number[]> =>
    Promise.all(
      ports.map(
        async (port) => ((await (await fetch(`http://127.0.0.1:${port}/runs`)).json()) as RunCounts)[tool],
      ),
    )

  it.runIf(kind.available).each(STATES)(
    '$what answered on one instance and replayed on the other is refused; the tool ran once',
    async (state) => {
      const [a, b] = urls as [URL, URL]
      const before = await runs(state.tool)
      const requestState = await stateOf(a, state)
      const done = await retry(a, state, requestState)
      expect(done.error).toBeUndefined()
      expect(textOf(done)).toMatch(/Hello Ada|Wiped sda/)
      const onOther = await retry(b, state, requestState)
      expect(onOther.error).toMatchObject(REPLAYED)
      // The same refusal as a replay on the instance that took it.
      const onSame = await retry(a, state, requestState)
      expect(onSame.error).toStrictEqual(onOther.error)
      expect(await runs(state.tool)).toStrictEqual([(before[0] ?? 0) + 1, before[1]])
    },
    60_000,
  )

  it.runIf(kind.available).each(STATES)(
    '$what sent to both instances at once runs once',
    async (state) => {
      const [a, b] = urls as [URL, URL]
      const before = await runs(state.tool)
      const requestState = await stateOf(b, state)
      const answers = await Promise.all([retry(a, state, requestState), retry(b, state, requestState)])
      expect(answers.filter((answer) => answer.error === undefined)).toHaveLength(1)
      expect(answers.filter((answer) => answer.error !== undefined)).toMatchObject([{ error: REPLAYED }])
      const after = await runs(state.tool)
      expect((after[0] ?? 0) + (after[1] ?? 0)).toBe((before[0] ?? 0) + (before[1] ?? 0) + 1)
    },
    60_000,
  )
})

const quiet = { warn: () => {} }

/** A handler over the once-tools in this process, served on loopback; its runs counted in `counts`. */
async function instance(
  counts: RunCounts,
  options: { claims?: ClaimStore; requestStateKey?: string } = {},
): Promise<URL> {
  const toolkit = await createToolkit({ tools: onceTools(counts, 'this process') })
  closers.push(() => toolkit.close())
  const handler = createMcpHandler({
    toolkit,
    authorize: (request) => request.headers.get('authorization')?.replace('Bearer ', '') ?? false,
    logger: quiet,
    ...options,
  })
  const server = await serveFetch(handler)
  closers.push(() => server.close())
  return new URL(`${server.url}/mcp`)
}

describe('one instance, claims in memory', () => {
  it.each(STATES)('$what used, then replayed, is refused by default; the tool ran once', async (state) => {
    const counts: RunCounts = { greet: 0, wipe: 0 }
    const url = await instance(counts)
    const requestState = await stateOf(url, state)
    expect((await retry(url, state, requestState)).error).toBeUndefined()
    expect((await retry(url, state, requestState)).error).toMatchObject(REPLAYED)
    expect(counts[state.tool]).toBe(1)
  })

  it.each(STATES)(
    '$what: two handlers sharing a memory store and a key refuse each other’s replay',
    async (state) => {
      const claims = createMemoryStore()
      const requestStateKey = stateKey()
      const counts: RunCounts = { greet: 0, wipe: 0 }
      const a = await instance(counts, { claims, requestStateKey })
      const b = await instance(counts, { claims, requestStateKey })
      const requestState = await stateOf(a, state)
      expect((await retry(b, state, requestState)).error).toBeUndefined()
      expect((await retry(a, state, requestState)).error).toMatchObject(REPLAYED)
      expect(counts[state.tool]).toBe(1)
    },
  )

  it.each(STATES)('$what is not run when the claim store fails', async (state) => {
    const counts: RunCounts = { greet: 0, wipe: 0 }
    const failing: ClaimStore = {
      claim: () => Promise.reject(new Error('the database is down')),
    }
    const url = await instance(counts, { claims: failing, requestStateKey: stateKey() })
    const answer = await retry(url, state, await stateOf(url, state))
    expect(answer.error).toMatchObject({
      code: -32603,
      message: expect.stringContaining('claims store failed'),
    })
    expect(JSON.stringify(answer.error)).not.toContain('database is down')
    expect(counts[state.tool]).toBe(0)
  })
})

describe('the claims option', () => {
  it('a shared key without claims is refused when the handler is made, over HTTP and stdio', async () => {
    const toolkit = await createToolkit({ tools: onceTools({ greet: 0, wipe: 0 }, 'nowhere') })
    closers.push(() => toolkit.close())
    const made = () => createMcpHandler({ toolkit, requestStateKey: stateKey(), logger: quiet })
    expect(made).toThrow(ConfigError)
    expect(made).toThrow(/`requestStateKey` is set without `claims`/)
    await expect(serveStdio({ toolkit, requestStateKey: stateKey() })).rejects.toMatchObject({
      field: 'claims',
    })
  })

  it('claims that are not a claim store are refused', async () => {
    const toolkit = await createToolkit({ tools: [] })
    closers.push(() => toolkit.close())
    expect(() =>
      createMcpHandler({ toolkit, claims: { load: () => undefined } as unknown as ClaimStore }),
    ).toThrow(/`claims` must be a store with claim/)
  })

  it('claims without a shared key warn once: another instance cannot open the states', async () => {
    const toolkit = await createToolkit({ tools: [] })
    closers.push(() => toolkit.close())
    const warnings: string[] = []
    const logger = {
      warn: (message: string) => warnings.push(message),
      error: () => {},
      info: () => {},
      debug: () => {},
    }
    createMcpHandler({ toolkit, claims: createMemoryStore(), logger })
    expect(warnings).toStrictEqual([expect.stringContaining('no `requestStateKey`')])
    createMcpHandler({ toolkit, claims: createMemoryStore(), requestStateKey: stateKey(), logger })
    createMcpHandler({ toolkit, logger })
    expect(warnings).toHaveLength(1)
  })
})

describe('the process guard, full', () => {
  it('refuses a new state for want of room with words that say so, and a replay as used', async () => {
    const claims = new BoundedClaims(1)
    await claimRequestState(claims, 'first')
    const refusal = (nonce: string) =>
      claimRequestState(claims, nonce).then(
        () => '',
        (error: Error) => error.message,
      )
    expect(await refusal('first')).toContain('used already')
    const full = await refusal('second')
    expect(full).toContain('server is busy')
    expect(full).not.toContain('used already')
  })
})
