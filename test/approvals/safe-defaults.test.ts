// The approval defaults a caller who sets nothing gets: states signed by a key of the process, forgeries
// refused, one guard for the whole process, expiry, and a shared secret without claims refused.
import { generateText, type LanguageModel, type ModelMessage, type UIMessage } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { claimOnce } from '../../src/approvals/claim-store.js'
import { digest } from '../../src/approvals/digest.js'
import { canonicalJson } from '../../src/approvals/json-data.js'
import { BoundedClaims } from '../../src/approvals/process-claims.js'
import { approvalIdFor } from '../../src/approvals/run-state.js'
import { ApprovalError, ConfigError } from '../../src/errors.js'
import { createChatHandler } from '../../src/next/create-chat-handler.js'
import { withToolkit } from '../../src/provider-form/with-toolkit.js'
import { InMemoryConversationStore } from '../../src/stores/in-memory-conversation-store.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { provider } from '../loop/support.js'
import type { ScriptedServer } from '../support/scripted-server.js'
import { answer, send } from './chat-support.js'
import { approvalTools, call, clientFor, refusal, startApprovalModel } from './support.js'

const servers: ScriptedServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function setup() {
  const server = await startApprovalModel([call('c1', 'delete_file', { path: 'a.txt' })])
  servers.push(server)
  const { tools, ran } = approvalTools()
  const dropped: string[] = []
  const dropDatabase = defineTool({
    name: 'drop_database',
    description: 'Drops a database.',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    needsApproval: true,
    execute: ({ name }) => {
      dropped.push(String(name))
      return `dropped ${String(name)}`
    },
  })
  const toolkit = await createToolkit({ tools: [...tools, dropDatabase] })
  return { server, toolkit, ran, dropped }
}

/**
 * What an attacker holding a state does: turns its waiting call into drop_database("production") and
 * recomputes the approval id and the seal as a plain SHA-256 (all public). Returns the new approval id.
 */
async function forge(state: Record<string, unknown>): Promise<string> {
  const calls = state.calls as Array<Record<string, unknown>>
  const target = calls.find((each) => typeof each.approvalId === 'string') as Record<string, unknown>
  target.toolName = 'drop_database'
  target.args = { name: 'production' }
  target.approvalId = await approvalIdFor({
    keys: { secret: undefined },
    runId: state.runId as string,
    turn: state.turn as number,
    toolCallId: target.toolCallId as string,
    args: target.args,
  })
  const { seal: _seal, ...data } = state
  state.seal = `sha256:${await digest({ text: canonicalJson(data) })}`
  return target.approvalId as string
}

/** The run state inside a provider-form history (it rides on the waiting call's provider options). */
function stateIn(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  if ((value as { type?: unknown }).type === 'toolnexus-run-state') return value as Record<string, unknown>
  for (const child of Object.values(value)) {
    const found = stateIn(child)
    if (found !== undefined) return found
  }
  return undefined
}

describe('forged states run nothing', () => {
  it('createClient without a secret: a state re-sealed by a plain hash is refused', async () => {
    const { server, toolkit, ran, dropped } = await setup()
    const first = await clientFor(server).run('Delete a.txt', { toolkit })
    const state = JSON.parse(JSON.stringify(first.state)) as Record<string, unknown>
    const approvalId = await forge(state)
    const error = await refusal(
      clientFor(server).resume(state as never, { toolkit, approvals: [{ approvalId, approved: true }] }),
    )
    expect(error.code).toBe('altered-state')
    expect([...ran, ...dropped]).toStrictEqual([])
  })

  it('the provider form without a secret: a history whose state was forged runs nothing', async () => {
    const { server, toolkit, dropped } = await setup()
    const model = withToolkit(provider('openai-chat').model(server.url) as Exclude<LanguageModel, string>, {
      toolkit,
    })
    const first = await generateText({ model, prompt: 'Delete a.txt' })
    const history = JSON.parse(JSON.stringify(first.response.messages)) as ModelMessage[]
    const state = stateIn(history) as Record<string, unknown>
    const original = (state.calls as Array<{ approvalId?: string }>)[0]?.approvalId as string
    const approvalId = await forge(state)
    // The AI SDK's own approval request must name the forged id too.
    const forged = JSON.parse(JSON.stringify(history).replaceAll(original, approvalId)) as ModelMessage[]
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Delete a.txt' },
      ...forged,
      {
        role: 'tool',
        content: [{ type: 'tool-approval-response', approvalId, approved: true, providerExecuted: true }],
      },
    ]
    await expect(generateText({ model, messages })).rejects.toSatisfy(
      (error) => ApprovalError.isInstance(error) && error.code === 'altered-state',
    )
    expect(dropped).toStrictEqual([])
  })
})

describe('without claims, one guard for the whole process', () => {
  it('a second client in the same process refuses a replay', async () => {
    const { server, toolkit, ran } = await setup()
    const first = await clientFor(server).run('Delete a.txt', { toolkit })
    const approvals = [{ approvalId: first.pending?.[0]?.approvalId as string, approved: true as const }]
    await clientFor(server).resume(first.state as never, { toolkit, approvals })
    const error = await refusal(clientFor(server).resume(first.state as never, { toolkit, approvals }))
    expect(error.code).toBe('replayed-approval')
    expect(ran).toStrictEqual(['delete_file a.txt'])
  })

  it('never forgets a live claim, and when full refuses new suspensions until some expire', async () => {
    const claims = new BoundedClaims(2)
    claims.reserve('run-a', 1)
    claims.reserve('run-b', 1)
    expect(() => claims.reserve('run-c', 1)).toThrow(
      expect.objectContaining({ code: 'guard-full' }) as unknown as Error,
    )
    expect(claims.claim('run-c', 1)).toBe(false)
    expect([claims.claim('run-a', 1), claims.claim('run-a', 1)]).toStrictEqual([true, false])
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    claims.reserve('run-c', 60)
    expect([claims.size, claims.claim('run-c', 60), claims.claim('run-c', 60)]).toStrictEqual([
      1,
      true,
      false,
    ])
  })
})

describe('a full guard', () => {
  it('refuses the answer of a run it does not hold as busy, not as answered already', async () => {
    const claims = new BoundedClaims(1)
    claims.reserve('run-a', 60)
    const lost = (key: string) =>
      claimOnce(claims, key, 60).then(
        () => undefined,
        (error: ApprovalError) => error,
      )
    const busy = await lost('run-b')
    expect(busy).toMatchObject({ code: 'guard-full', message: expect.stringContaining('busy') })
    expect(busy?.message).not.toContain('answered already')
    expect(await lost('run-a')).toBeUndefined()
    expect(await lost('run-a')).toMatchObject({ code: 'replayed-approval' })
  })
})

describe('signed runs and states expire', () => {
  it('createClient: a state answered after approvalTtlSeconds is refused', async () => {
    const { server, toolkit, ran } = await setup()
    const client = clientFor(server, { approvalTtlSeconds: 1 })
    const first = await client.run('Delete a.txt', { toolkit })
    expect(first.state?.expiresAt).toBeGreaterThan(Date.now())
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    const approvals = [{ approvalId: first.pending?.[0]?.approvalId as string, approved: true as const }]
    const error = await refusal(client.resume(first.state as never, { toolkit, approvals }))
    expect(error.code).toBe('expired-approval')
    expect(ran).toStrictEqual([])
  })

  it('createChatHandler: a signed run answered after approvalTtlSeconds is refused', async () => {
    const { server, toolkit, ran } = await setup()
    const handler = createChatHandler({ client: clientFor(server), toolkit, approvalTtlSeconds: 1 })
    const question: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Delete a.txt' }] }
    const first = await send(handler, [question])
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    const response = await handler(
      new Request('http://localhost/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          id: 'chat-1',
          messages: [question, answer(first, { c1: { approved: true } })],
          trigger: 'submit-message',
        }),
      }),
    )
    expect(response.status).toBe(409)
    expect(((await response.json()) as { error: string }).error).toContain('expired')
    expect(ran).toStrictEqual([])
  })
})

describe('a shared secret without claims is a ConfigError at the first suspension', () => {
  const secret = 'a secret every instance shares, 32+ characters'

  it('createClient', async () => {
    const { server, toolkit, ran } = await setup()
    const client = clientFor(server, { secret })
    await expect(client.run('Delete a.txt', { toolkit })).rejects.toSatisfy(
      (error) => ConfigError.isInstance(error) && error.message.includes('without `claims`'),
    )
    expect(ran).toStrictEqual([])
    // With claims it suspends.
    const other = await setup()
    const claimed = clientFor(other.server, { secret, claims: new InMemoryConversationStore() })
    expect((await claimed.run('Delete a.txt', { toolkit: other.toolkit })).status).toBe('suspended')
  })

  it('withToolkit', async () => {
    const { server, toolkit } = await setup()
    const model = withToolkit(provider('openai-chat').model(server.url) as Exclude<LanguageModel, string>, {
      toolkit,
      secret,
    })
    await expect(generateText({ model, prompt: 'Delete a.txt' })).rejects.toSatisfy((error) =>
      ConfigError.isInstance(error),
    )
  })

  it('createChatHandler: the stream ends with the error, and no signed run reaches the browser', async () => {
    const { server, toolkit } = await setup()
    const handler = createChatHandler({ client: clientFor(server), toolkit, secret })
    const question: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Delete a.txt' }] }
    const response = await handler(
      new Request('http://localhost/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'chat-1', messages: [question], trigger: 'submit-message' }),
      }),
    )
    const text = await response.text()
    expect(text).toContain('without `claims`')
    expect(text).not.toContain('toolnexusRun')
  })
})
