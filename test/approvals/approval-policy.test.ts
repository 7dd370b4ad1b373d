import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError, ToolDefinitionError } from '../../src/errors.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import type { CheckedCall } from '../../src/toolkit/toolkit.js'
import type { ScriptedServer } from '../support/scripted-server.js'
import { type ToolkitOverrides, wrappedToolkit } from '../support/wrapped-toolkit.js'
import { approvalTools, call, clientFor, startApprovalModel } from './support.js'

const ANNOTATED_SERVER = fileURLToPath(
  new URL('../fixtures/approvals/annotated-mcp-server.mjs', import.meta.url),
)

const toolkits: Toolkit[] = []
const servers: ScriptedServer[] = []
afterEach(async () => {
  await Promise.all(toolkits.splice(0).map((toolkit) => toolkit.close()))
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

const echo = (name: string, extra: Partial<Parameters<typeof defineTool>[0]> = {}) =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
    execute: () => name,
    ...extra,
  })

describe('the toolkit decides which calls need approval', () => {
  it('by the tool’s own flag or rule, and by name in the approval policy', async () => {
    const toolkit = await createToolkit({
      tools: [
        echo('always', { needsApproval: true }),
        echo('big', { needsApproval: ({ n }) => Number(n) > 10 }),
        echo('async_rule', { needsApproval: async ({ n }) => Number(n) === 1 }),
        echo('throws', {
          needsApproval: () => {
            throw new Error('cannot tell')
          },
        }),
        echo('listed'),
        echo('free'),
      ],
      approval: { tools: ['listed'] },
    })
    toolkits.push(toolkit)
    expect(toolkit.needsApproval('always', {})).toBe(true)
    expect(toolkit.needsApproval('big', { n: 5 })).toBe(false)
    expect(toolkit.needsApproval('big', { n: 50 })).toBe(true)
    // A number sent as text is read as the number, as when the call runs.
    expect(toolkit.needsApproval('big', { n: '50' })).toBe(true)
    await expect(toolkit.needsApproval('async_rule', { n: 1 })).resolves.toBe(true)
    await expect(toolkit.needsApproval('async_rule', { n: 2 })).resolves.toBe(false)
    // A rule that cannot decide asks a person.
    expect(toolkit.needsApproval('throws', {})).toBe(true)
    expect(toolkit.needsApproval('listed', {})).toBe(true)
    expect(toolkit.needsApproval('free', {})).toBe(false)
    expect(toolkit.needsApproval('unknown', {})).toBe(false)
    // Arguments that do not fit are answered with the error; nothing runs, so nothing to approve.
    expect(toolkit.needsApproval('always', { n: 'many' })).toBe(false)
  })

  it('gives the rule the call id', async () => {
    const seen: unknown[] = []
    const toolkit = await createToolkit({
      tools: [echo('rule', { needsApproval: (_args, context) => seen.push(context.toolCallId) > 0 })],
    })
    toolkits.push(toolkit)
    expect(toolkit.needsApproval('rule', {}, 'call_7')).toBe(true)
    expect(seen).toStrictEqual(['call_7'])
  })

  it('from MCP annotations: destructiveHint true and not readOnlyHint', async () => {
    const toolkit = await createToolkit({
      mcpConfig: { mcpServers: { gh: { command: process.execPath, args: [ANNOTATED_SERVER] } } },
      approval: { mcp: 'destructive' },
    })
    toolkits.push(toolkit)
    const names = toolkit.tools().map((tool) => tool.name)
    expect(names).toHaveLength(5)
    const verdicts = Object.fromEntries(
      names.map((name) => [name, toolkit.needsApproval(name, { repo: 'r' })]),
    )
    expect(verdicts).toStrictEqual({
      gh_delete_repo: true,
      gh_list_repos: false,
      gh_touch_repo: false,
      gh_star_repo: false,
      gh_plain_tool: false,
    })
    // The annotations are kept on the tool.
    expect(toolkit.get('gh_delete_repo')?.annotations).toMatchObject({
      destructiveHint: true,
      readOnlyHint: false,
    })

    const without = await createToolkit({
      mcpConfig: { mcpServers: { gh: { command: process.execPath, args: [ANNOTATED_SERVER] } } },
    })
    toolkits.push(without)
    expect(without.needsApproval('gh_delete_repo', { repo: 'r' })).toBe(false)
  })

  it('suspends a run on an MCP tool the server marks destructive', async () => {
    const toolkit = await createToolkit({
      mcpConfig: { mcpServers: { gh: { command: process.execPath, args: [ANNOTATED_SERVER] } } },
      approval: { mcp: 'destructive' },
    })
    toolkits.push(toolkit)
    const server = await startApprovalModel([
      call('c1', 'gh_delete_repo', { repo: 'toolnexus' }),
      call('c2', 'gh_list_repos', { repo: 'all' }),
    ])
    servers.push(server)
    const client = clientFor(server)
    const first = await client.run('Tidy up', { toolkit })
    expect(first.status).toBe('suspended')
    expect(first.pending?.map((each) => each.toolName)).toStrictEqual(['gh_delete_repo'])
    expect(first.toolCalls.map((each) => each.output)).toStrictEqual(['list_repos all'])
    const approvalId = first.pending?.[0]?.approvalId as string
    const next = await client.resume(JSON.stringify(first.state), {
      toolkit,
      approvals: [{ approvalId, approved: true }],
    })
    expect(next.status).toBe('done')
    expect(server.toolMessages(1)).toStrictEqual([
      { id: 'c1', content: 'delete_repo toolnexus' },
      { id: 'c2', content: 'list_repos all' },
    ])
  })

  it('refuses a malformed policy or flag with a message saying what to write', async () => {
    await expect(createToolkit({ approval: { tools: 'listed' } as never })).rejects.toThrow(ConfigError)
    await expect(createToolkit({ approval: { mcp: 'all' } as never })).rejects.toThrow(
      "`approval.mcp` can only be 'destructive'",
    )
    expect(() => echo('bad', { needsApproval: 'yes' as never })).toThrow(ToolDefinitionError)
  })
})

describe('a Toolkit made elsewhere: an approval check that does not plainly say no holds the call', () => {
  const fails = (): never => {
    throw new Error('cannot tell')
  }
  const checked = (verdict: () => unknown) => (): CheckedCall => ({
    needsApproval: verdict() as boolean,
    execute: async () => ({ output: 'ran anyway', isError: false }),
  })
  it.each([
    [
      'needsApproval answers a truthy non-boolean',
      { needsApproval: () => 'yes' as never, checkCall: undefined },
    ],
    ['checkCall answers a truthy non-boolean', { checkCall: checked(() => 1) }],
    ['needsApproval throws', { needsApproval: fails, checkCall: undefined }],
    [
      'needsApproval rejects',
      { needsApproval: () => Promise.reject(new Error('down')), checkCall: undefined },
    ],
    ['checkCall throws', { checkCall: fails }],
    ['checkCall’s verdict rejects', { checkCall: checked(() => Promise.reject(new Error('down'))) }],
  ] satisfies Array<[string, ToolkitOverrides]>)(
    '%s: the run is suspended and nothing runs',
    async (_, overrides) => {
      const { tools, ran } = approvalTools()
      const inner = await createToolkit({ tools })
      toolkits.push(inner)
      const server = await startApprovalModel([call('c1', 'get_weather', { city: 'Oslo' })])
      servers.push(server)
      const toolkit = wrappedToolkit(inner, overrides)
      const first = await clientFor(server).run('Weather?', { toolkit })
      expect([first.status, first.pending?.map((each) => each.toolName), ran]).toStrictEqual([
        'suspended',
        ['get_weather'],
        [],
      ])
    },
  )
})
