import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { createMcpHandler as CreateMcpHandler } from '../../src/mcp-server/create-mcp-handler.js'
import type { defineTool as DefineTool } from '../../src/tool/define-tool.js'
import type { JSONSchema } from '../../src/tool/types.js'
import type { createToolkit as CreateToolkit, Toolkit } from '../../src/toolkit/create-toolkit.js'
import type * as ApprovalSupport from '../approvals/support.js'
import { type FetchServer, serveFetch } from '../mcp-server/serve-fetch.js'
import type { ScriptedServer } from '../support/scripted-server.js'

// Every validation of a call's arguments, by the schema it was made against.
const validations = vi.hoisted(() => new Map<unknown, number>())
vi.mock('../../src/tool/validate-args.js', async (original) => {
  const actual = await original<typeof import('../../src/tool/validate-args.js')>()
  return {
    ...actual,
    validateArgs: (schema: JSONSchema, args: unknown) => {
      validations.set(schema, (validations.get(schema) ?? 0) + 1)
      return actual.validateArgs(schema, args)
    },
  }
})

// The suite's workers keep their module cache from one file to the next (`isolate: false`): the modules
// that import validate-args are loaded afresh here, so that they see the counting one.
let defineTool: typeof DefineTool
let createToolkit: typeof CreateToolkit
let call: typeof ApprovalSupport.call
let clientFor: typeof ApprovalSupport.clientFor
let startApprovalModel: typeof ApprovalSupport.startApprovalModel
let createMcpHandler: typeof CreateMcpHandler
beforeAll(async () => {
  vi.resetModules()
  ;({ createMcpHandler } = await import('../../src/mcp-server/create-mcp-handler.js'))
  ;({ defineTool } = await import('../../src/tool/define-tool.js'))
  ;({ createToolkit } = await import('../../src/toolkit/create-toolkit.js'))
  ;({ call, clientFor, startApprovalModel } = await import('../approvals/support.js'))
})

const toolkits: Toolkit[] = []
const servers: Array<ScriptedServer | FetchServer> = []
afterEach(async () => {
  validations.clear()
  await Promise.all(toolkits.splice(0).map((toolkit) => toolkit.close()))
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

type Rule = { needsApproval?: NonNullable<Parameters<typeof DefineTool>[0]['needsApproval']> }
// Rules under which a call of `send_money` with amount 5 runs without waiting.
const LETS_THROUGH: Array<[string, Rule]> = [
  ['no approval rule', {}],
  ['an approval rule that lets the call through', { needsApproval: ({ amount }) => Number(amount) > 100 }],
]

/** `send_money`, with `rule` for its approval. */
function sendMoneyTool(rule: Rule) {
  return defineTool({
    name: 'send_money',
    description: 'Sends money.',
    inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
    ...rule,
    execute: ({ amount }) => `sent ${String(amount)}`,
  })
}

describe('a call’s arguments are checked once', () => {
  it.each([
    ...LETS_THROUGH,
    ['an async approval rule that lets the call through', { needsApproval: async () => false }],
  ] satisfies Array<[string, Rule]>)(
    'for a tool with %s: the approval check and the run share one check',
    async (_, rule) => {
      const sendMoney = sendMoneyTool(rule)
      const toolkit = await createToolkit({ tools: [sendMoney] })
      toolkits.push(toolkit)
      const server = await startApprovalModel([call('c1', 'send_money', { amount: 5 })])
      servers.push(server)
      const result = await clientFor(server).run('Pay', { toolkit })
      expect(result.status).toBe('done')
      expect(server.toolMessages(1)).toStrictEqual([{ id: 'c1', content: 'sent 5' }])
      expect(validations.get(sendMoney.inputSchema)).toBe(1)
    },
  )
})

describe('a call served over MCP', () => {
  it.each(LETS_THROUGH)(
    'for a tool with %s: its approval check and its run share one check',
    async (_, rule) => {
      const sendMoney = sendMoneyTool(rule)
      const toolkit = await createToolkit({ tools: [sendMoney] })
      toolkits.push(toolkit)
      const server = await serveFetch(createMcpHandler({ toolkit, authorize: () => true }))
      servers.push(server)
      const client = new Client({ name: 'one-check', version: '1.0.0' })
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
      try {
        expect(await client.callTool({ name: 'send_money', arguments: { amount: 5 } })).toStrictEqual({
          content: [{ type: 'text', text: 'sent 5' }],
        })
      } finally {
        await client.close()
      }
      expect(validations.get(sendMoney.inputSchema)).toBe(1)
    },
  )
})

describe('arguments that break the schema, for a tool that always asks', () => {
  it('never wait for approval and never reach the tool: the call is answered with the error, checked once', async () => {
    const ran: unknown[] = []
    const deleteFile = defineTool({
      name: 'delete_file',
      description: 'Deletes a file.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      needsApproval: true,
      execute: (args) => {
        ran.push(args)
        return 'deleted'
      },
    })
    const toolkit = await createToolkit({ tools: [deleteFile] })
    toolkits.push(toolkit)
    const server = await startApprovalModel([call('c1', 'delete_file', { path: ['/', '/etc'] })])
    servers.push(server)
    const result = await clientFor(server).run('Tidy up', { toolkit })
    expect(result.status).toBe('done')
    expect(ran).toStrictEqual([])
    expect(server.toolMessages(1)).toStrictEqual([
      {
        id: 'c1',
        content:
          'Invalid arguments for tool "delete_file": path: Instance type "array" is invalid. Expected "string".',
      },
    ])
    expect(validations.get(deleteFile.inputSchema)).toBe(1)
  })
})

describe('a tool’s body runs without its own check only while the tool is as it was made', () => {
  const made = () =>
    defineTool({
      name: 'greet',
      description: 'Greets someone.',
      inputSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
      execute: ({ who }) => `hello ${String(who)}`,
    })

  it('an execute replaced in place is the one the toolkit runs', async () => {
    const greet = made()
    const original = greet.execute
    greet.execute = async (args, context) => {
      const result = await original(args, context)
      return { ...result, output: `${result.output} (wrapped)` }
    }
    const toolkit = await createToolkit({ tools: [greet] })
    toolkits.push(toolkit)
    expect(await toolkit.execute('greet', { who: 'Asha' })).toStrictEqual({
      output: 'hello Asha (wrapped)',
      isError: false,
    })
  })

  it('a copy with a stricter schema is held to it, and the copy still equals the tool it was made from', async () => {
    const greet = made()
    const copy = { ...greet, inputSchema: { ...greet.inputSchema, additionalProperties: false } }
    expect({ ...greet }).toStrictEqual(greet)
    const toolkit = await createToolkit({ tools: [copy] })
    toolkits.push(toolkit)
    expect(await toolkit.execute('greet', { who: 'Asha', shout: true })).toStrictEqual({
      output: 'Invalid arguments for tool "greet": shout: unknown argument (not in the schema)',
      isError: true,
    })
    expect(await toolkit.execute('greet', { who: 'Asha' })).toStrictEqual({
      output: 'hello Asha',
      isError: false,
    })
  })
})
