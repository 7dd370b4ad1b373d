// A request state the MCP server hands a caller (an approval question, a forwarded round of input) is
// bound to that caller: another authorized caller who sends it back is refused with words that say so,
// nothing runs, and the state stays good for the caller it was handed to. The process's guard, full,
// refuses a new state with words saying the server is busy (before the state leaves), and a claim store
// that fails is reported to the handler's logger while the client hears a generic refusal.
import { afterEach, describe, expect, it } from 'vitest'
import { BoundedClaims } from '../../src/approvals/process-claims.js'
import { createMcpHandler, type McpHandlerOptions } from '../../src/mcp-server/create-mcp-handler.js'
import type { ClaimStore } from '../../src/shared/claim-store.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { onceTools, type RunCounts } from './fixtures/once-tools.js'
import { serveFetch } from './serve-fetch.js'
import { type Rpc, wireRpc } from './wire-rpc.js'

const closers: Array<() => Promise<unknown>> = []

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {})
})

const STATES = [
  {
    what: 'a forwarded round of input',
    call: { name: 'greet', arguments: {} },
    answers: { name: { action: 'accept', content: { name: 'Ada' } } },
    tool: 'greet' as const,
    done: /Hello Ada/,
  },
  {
    what: 'an approval',
    call: { name: 'wipe_disk', arguments: { disk: 'sda' } },
    answers: { approval: { action: 'accept', content: { approve: true } } },
    tool: 'wipe' as const,
    done: /Wiped sda/,
  },
]

type StateCase = (typeof STATES)[number]

/** The two ways `authorize` names a caller: the identity it returns, or `true` (its credentials). */
type Authorize = NonNullable<McpHandlerOptions['authorize']>

/** Each caller named by its bearer token. */
const byBearer: Authorize = (request) => request.headers.get('authorization')?.replace('Bearer ', '') ?? false

const AUTHORIZE: Array<{ how: string; authorize: Authorize }> = [
  { how: 'authorize names the caller', authorize: byBearer },
  {
    how: 'authorize answers true (the caller is its credentials)',
    authorize: (request) => request.headers.has('authorization'),
  },
]

const quiet = { warn: () => {} }

async function instance(counts: RunCounts, options: Omit<McpHandlerOptions, 'toolkit'>): Promise<URL> {
  const toolkit = await createToolkit({ tools: onceTools(counts, 'here') })
  closers.push(() => toolkit.close())
  const server = await serveFetch(createMcpHandler({ toolkit, logger: quiet, ...options }))
  closers.push(() => server.close())
  return new URL(`${server.url}/mcp`)
}

function rpc(url: URL, params: Record<string, unknown>, caller: string): Promise<Rpc> {
  return wireRpc(url, 'tools/call', params, {
    capabilities: { elicitation: {} },
    authorization: `Bearer ${caller}`,
  })
}

async function stateOf(url: URL, state: StateCase, caller: string): Promise<string> {
  const first = await rpc(url, state.call, caller)
  expect(first.result?.resultType).toBe('input_required')
  return String(first.result?.requestState)
}

function retry(url: URL, state: StateCase, requestState: string, caller: string): Promise<Rpc> {
  return rpc(url, { ...state.call, inputResponses: state.answers, requestState }, caller)
}

function textOf(answer: Rpc): string {
  const content = answer.result?.content as Array<{ text?: string }> | undefined
  return content?.map((block) => block.text ?? '').join('') ?? ''
}

describe.each(AUTHORIZE)('a request state handed to one caller, when $how', ({ authorize }) => {
  it.each(STATES)('$what sent back by another caller is refused; nothing runs', async (state) => {
    const counts: RunCounts = { greet: 0, wipe: 0 }
    const url = await instance(counts, { authorize })
    const requestState = await stateOf(url, state, 'alice')
    const moved = await retry(url, state, requestState, 'bob')
    expect(moved.result).toBeUndefined()
    expect(moved.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('issued to another caller'),
    })
    expect(JSON.stringify(moved.error)).not.toContain('alice')
    expect(counts[state.tool]).toBe(0)
    // Still the caller's own: the refused attempt claimed nothing.
    const own = await retry(url, state, requestState, 'alice')
    expect(own.error).toBeUndefined()
    expect(textOf(own)).toMatch(state.done)
    expect(counts[state.tool]).toBe(1)
  })
})

describe('the process guard, full', () => {
  it.each(STATES)(
    '$what: a new state is refused saying the server is busy; the one handed out still runs once',
    async (state) => {
      const counts: RunCounts = { greet: 0, wipe: 0 }
      const url = await instance(counts, { authorize: byBearer, claims: new BoundedClaims(1) })
      const requestState = await stateOf(url, state, 'alice')
      const busy = await rpc(url, state.call, 'alice')
      expect(busy.result).toBeUndefined()
      expect(busy.error).toMatchObject({ code: -32603, message: expect.stringContaining('server is busy') })
      expect(busy.error?.message).not.toContain('used already')
      expect(counts[state.tool]).toBe(0)
      expect(textOf(await retry(url, state, requestState, 'alice'))).toMatch(state.done)
      const replayed = await retry(url, state, requestState, 'alice')
      expect(replayed.error).toMatchObject({ code: -32602, message: expect.stringContaining('used already') })
      expect(counts[state.tool]).toBe(1)
    },
  )
})

describe('a claim store that fails', () => {
  it.each(STATES)('$what: the store’s error goes to the logger, not to the client', async (state) => {
    const counts: RunCounts = { greet: 0, wipe: 0 }
    const warnings: string[] = []
    const failing: ClaimStore = {
      claim: () => Promise.reject(new Error('redis at 10.0.0.7 refused: NOAUTH s3cret-token')),
    }
    const url = await instance(counts, {
      authorize: byBearer,
      claims: failing,
      requestStateKey: 'k'.repeat(32),
      logger: { warn: (message) => warnings.push(message) },
    })
    const answer = await retry(url, state, await stateOf(url, state, 'alice'), 'alice')
    expect(answer.error).toMatchObject({
      code: -32603,
      message: expect.stringContaining('claims store failed'),
    })
    expect(JSON.stringify(answer.error)).not.toContain('s3cret-token')
    expect(warnings).toStrictEqual([expect.stringContaining('NOAUTH s3cret-token')])
    expect(counts[state.tool]).toBe(0)
  })
})
