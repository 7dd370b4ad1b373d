// The toolkit served over MCP as a gateway over real MCP servers (the v2 SDK, over HTTP): their
// resources, templates, prompts, completions, logs, progress and embedded resources reach a 2025 client
// (v1 SDK) and a 2026-07-28 client (v2 SDK); two servers' prompts never collide; a served call's
// arguments are checked once; a served call runs in its caller's trace.
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from '@modelcontextprotocol/client'
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { CallToolResultSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { trace } from '@opentelemetry/api'
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpHandler, type McpHandlerOptions } from '../../src/mcp-server/create-mcp-handler.js'
import { defineTool } from '../../src/tool/define-tool.js'
import type { Tool } from '../../src/tool/types.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { startRecording } from '../telemetry/support.js'
import { serveSource } from './conformance-source.js'
import { serveFetch } from './serve-fetch.js'
import { RED_PIXEL } from './served-toolkit.js'

const closers: Array<() => Promise<unknown>> = []

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {})
})

/** A gateway over two copies of the source (`test` and `other`) and the given native tools. */
async function gateway(
  options: { toolkit?: (toolkit: Toolkit) => Toolkit; handler?: McpHandlerOptions; tools?: Tool[] } = {},
): Promise<URL> {
  const source = await serveSource()
  closers.push(() => source.close())
  const toolkit = await createToolkit({
    mcpConfig: { mcpServers: { test: { url: `${source.url}/mcp` }, other: { url: `${source.url}/mcp` } } },
    tools: options.tools ?? [],
  })
  closers.push(() => toolkit.close())
  const served = await serveFetch(
    createMcpHandler({ toolkit: options.toolkit?.(toolkit) ?? toolkit, ...options.handler }),
  )
  closers.push(() => served.close())
  return new URL(`${served.url}/mcp`)
}

async function legacyClient(url: URL): Promise<LegacyClient> {
  const client = new LegacyClient({ name: 'legacy-test-client', version: '1.0.0' })
  await client.connect(new LegacyHttpTransport(url))
  closers.push(() => client.close())
  return client
}

async function modernClient(url: URL): Promise<ModernClient> {
  const client = new ModernClient(
    { name: 'modern-test-client', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  )
  await client.connect(new ModernHttpTransport(url))
  closers.push(() => client.close())
  return client
}

type AnyClient = LegacyClient | ModernClient

describe.each([
  ['a 2025 client (v1 SDK)', legacyClient],
  ['a 2026-07-28 client (v2 SDK)', modernClient],
] as Array<[string, (url: URL) => Promise<AnyClient>]>)('a gateway, to %s', (_who, connect) => {
  it("lists and reads its sources' resources and templates, once per URI, names prefixed", async () => {
    const client = await connect(await gateway())
    const { resources } = await client.listResources()
    expect(resources.map(({ uri, name }) => [uri, name])).toStrictEqual([
      ['test://static-text', 'test_static-text'],
      ['test://static-binary', 'test_static-binary'],
      ['test://watched-resource', 'test_watched-resource'],
      ['test://asking', 'test_asking'],
    ])
    const { resourceTemplates } = await client.listResourceTemplates()
    expect(resourceTemplates.map(({ uriTemplate, name }) => [uriTemplate, name])).toStrictEqual([
      ['test://template/{id}/data', 'test_template'],
      ['test://template/{id}/data', 'other_template'],
    ])
    expect((await client.readResource({ uri: 'test://static-text' })).contents).toStrictEqual([
      {
        uri: 'test://static-text',
        mimeType: 'text/plain',
        text: 'This is the content of the static text resource.',
      },
    ])
    expect((await client.readResource({ uri: 'test://static-binary' })).contents).toStrictEqual([
      { uri: 'test://static-binary', mimeType: 'image/png', blob: RED_PIXEL },
    ])
    const templated = await client.readResource({ uri: 'test://template/42/data' })
    expect(templated.contents).toStrictEqual([
      {
        uri: 'test://template/42/data',
        mimeType: 'application/json',
        text: '{"id":"42","templateTest":true,"data":"Data for ID: 42"}',
      },
    ])
    await expect(client.readResource({ uri: 'test://nowhere' })).rejects.toThrow(/Resource not found/)
  })

  it("serves each source's prompts under its own prefix, with arguments, and completes them", async () => {
    const client = await connect(await gateway())
    const names = (await client.listPrompts()).prompts.map((prompt) => prompt.name)
    expect(names).toStrictEqual([
      'test_simple_prompt',
      'test_prompt_with_arguments',
      'test_prompt_with_embedded_resource',
      'test_prompt_with_image',
      'test_input_required_result_prompt',
      'other_simple_prompt',
      'other_prompt_with_arguments',
      'other_prompt_with_embedded_resource',
      'other_prompt_with_image',
      'other_input_required_result_prompt',
    ])
    const got = await client.getPrompt({
      name: 'other_prompt_with_arguments',
      arguments: { arg1: 'a', arg2: 'b' },
    })
    expect(got.messages).toStrictEqual([
      { role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" } },
    ])
    const embedded = await client.getPrompt({
      name: 'test_prompt_with_embedded_resource',
      arguments: { resourceUri: 'test://x' },
    })
    expect(embedded.messages[0]?.content).toStrictEqual({
      type: 'resource',
      resource: { uri: 'test://x', mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
    })
    await expect(client.getPrompt({ name: 'simple_prompt' })).rejects.toThrow(/Unknown prompt/)
    const completed = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    })
    expect(completed.completion).toStrictEqual({
      values: ['paris', 'park', 'party'],
      total: 3,
      hasMore: false,
    })
  })

  it('passes embedded resources, resource links and mixed content through in order', async () => {
    const client = await connect(await gateway())
    const embedded = await client.callTool({ name: 'test_embedded_resource', arguments: {} })
    expect(embedded.content).toStrictEqual([
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ])
    const mixed = await client.callTool({ name: 'test_multiple_content_types', arguments: {} })
    expect((mixed.content as Array<{ type: string }>).map((block) => block.type)).toStrictEqual([
      'text',
      'image',
      'resource',
    ])
    const link = await client.callTool({ name: 'other_resource_link', arguments: {} })
    expect(link.content).toStrictEqual([
      { type: 'resource_link', uri: 'test://static-text', name: 'static-text', mimeType: 'text/plain' },
    ])
  })
})

describe('a gateway, to a 2025 client', () => {
  it("forwards a source tool's log messages and honours logging/setLevel", async () => {
    const client = await legacyClient(await gateway())
    const logs: unknown[] = []
    client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
      logs.push([params.level, params.data])
    })
    await client.setLoggingLevel('debug')
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} })
    await expect.poll(() => logs.length).toBe(3)
    expect(logs).toStrictEqual([
      ['info', 'Tool execution started'],
      ['info', 'Tool processing data'],
      ['info', 'Tool execution completed'],
    ])
    logs.length = 0
    await client.setLoggingLevel('error')
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} })
    expect(logs).toStrictEqual([])
  })

  it("forwards a source tool's progress to the caller's progress token", async () => {
    const client = await legacyClient(await gateway())
    const progress: unknown[] = []
    await client.request(
      { method: 'tools/call', params: { name: 'test_tool_with_progress', arguments: {} } },
      CallToolResultSchema,
      { onprogress: (report) => progress.push(report) },
    )
    expect(progress).toStrictEqual([
      { progress: 0, total: 100 },
      { progress: 50, total: 100 },
      { progress: 100, total: 100 },
    ])
  })

  it("checks a served call's arguments once, for its approval and its run", async () => {
    let checked = 0
    const counted = (toolkit: Toolkit): Toolkit =>
      new Proxy(toolkit, {
        get(target, key) {
          const value = Reflect.get(target, key, target)
          if (typeof value !== 'function') return value
          // Each of these checks the arguments against the schema when it is called.
          const checks = key === 'checkCall' || key === 'execute' || key === 'needsApproval'
          return (...args: unknown[]) => {
            if (checks) checked++
            return value.apply(target, args)
          }
        },
      })
    const send = defineTool({
      name: 'send',
      description: 'Sends an amount.',
      inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      needsApproval: ({ amount }) => Number(amount) > 100,
      execute: ({ amount }) => `sent ${amount}`,
    })
    const url = await gateway({ tools: [send], toolkit: counted, handler: { authorize: () => true } })
    const client = await legacyClient(url)
    const sent = await client.callTool({ name: 'send', arguments: { amount: 5 } })
    expect([sent.content, checked]).toStrictEqual([[{ type: 'text', text: 'sent 5' }], 1])
  })
})

describe('a gateway with telemetry', () => {
  it("runs a served call in its caller's trace: one trace spans host and server", async () => {
    const recording = startRecording({ global: true })
    closers.push(() => recording.shutdown())
    const tracer = recording.tracerProvider.getTracer('test')
    const seen: string[] = []
    const traced = defineTool({
      name: 'where_am_i',
      description: 'Reports the trace it runs in.',
      execute: () => {
        seen.push(trace.getActiveSpan()?.spanContext().traceId ?? 'none')
        return 'here'
      },
    })
    const url = await gateway({ tools: [traced], handler: { telemetry: { tracer } } })
    const host = tracer.startSpan('host turn')
    const { traceId, spanId } = host.spanContext()
    const traceparent = `00-${traceId}-${spanId}-01`
    const legacy = await legacyClient(url)
    await legacy.callTool({ name: 'where_am_i', arguments: {}, _meta: { traceparent } })
    const modern = await modernClient(url)
    await modern.callTool({ name: 'where_am_i', arguments: {}, _meta: { traceparent } })
    // A malformed traceparent is not trusted: the call gets a trace of its own.
    await legacy.callTool({
      name: 'where_am_i',
      arguments: {},
      _meta: { traceparent: `00-${'0'.repeat(32)}-${spanId}-01` },
    })
    host.end()
    const served = recording.spans().filter((span) => span.name === 'execute_tool where_am_i')
    expect(
      served.map((span) => [
        span.spanContext().traceId === traceId,
        span.parentSpanContext?.spanId === spanId,
      ]),
    ).toStrictEqual([
      [true, true],
      [true, true],
      [false, false],
    ])
    expect(seen.slice(0, 2)).toStrictEqual([traceId, traceId])
  })
})
