// No configured secret reaches the telemetry backend — MCP env and headers, HTTP tool headers however the
// tool came in, the toolkit's `secrets` — in any exported span, attribute, event, status or metric, with
// content recording off and on; and a tool name the model made up is `_unknown`, so it can neither carry a
// secret nor make a new metric series.
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createOpenAI } from '@ai-sdk/openai'
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { httpTool } from '../../src/http/http-tool.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { type HttpFixture, startHttpFixture } from '../fixtures/mcp/http-server.mjs'
import { STDIO_SERVER } from '../mcp/mcp-fixtures.js'
import { openaiChatProtocol } from '../support/scripted-openai.js'
import { type Script, startScriptedServer } from '../support/scripted-server.js'
import { type RecordingTelemetry, startRecording } from './support.js'

const secret = (label: string): string => `${label}-${randomBytes(10).toString('hex')}`
const SECRETS = {
  TN_T_MCP_ENV: secret('mcp-env'),
  TN_T_MCP_HEADER: secret('mcp-header'),
  TN_T_HTTP_IN_TOOLS: secret('http-in-tools'),
  TN_T_HTTP_LITERAL: secret('http-literal'),
  TN_T_LISTED: secret('listed'),
}
const ALL = Object.values(SECRETS)

let recording: RecordingTelemetry
let echo: Server
let echoUrl = ''
let remote: HttpFixture
const closers: Array<() => Promise<unknown>> = []
const logLines: string[] = []

beforeAll(async () => {
  recording = startRecording({ global: false })
  // Answers with the credentials it was sent, as a careless debug endpoint would.
  echo = createServer((request, response) => {
    response.setHeader('content-type', 'text/plain')
    response.end(`key ${String(request.headers['x-api-key'])} auth ${String(request.headers.authorization)}`)
  })
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve))
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`
  remote = await startHttpFixture()
  for (const [name, value] of Object.entries(SECRETS)) process.env[name] = value
})

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {})
  recording.reset()
  logLines.length = 0
})

afterAll(async () => {
  for (const name of Object.keys(SECRETS)) delete process.env[name]
  await remote.close()
  await new Promise<void>((resolve) => echo.close(() => resolve()))
  await recording.shutdown()
})

async function secretToolkit(): Promise<Toolkit> {
  const toolkit = await createToolkit({
    logger: { warn: (line) => logLines.push(line), info: (line) => logLines.push(line) },
    secrets: ['TN_T_LISTED'],
    mcpConfig: {
      mcpServers: {
        fx: { command: process.execPath, args: [STDIO_SERVER], env: { API_TOKEN: SECRETS.TN_T_MCP_ENV } },
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax.
        remote: { url: `${remote.url}/mcp`, headers: { Authorization: 'Bearer ${TN_T_MCP_HEADER}' } },
      },
    },
    http: [
      {
        name: 'whoami_literal',
        description: 'Asks who we are, with a literal credential.',
        method: 'GET',
        url: `${echoUrl}/whoami`,
        headers: { authorization: `Bearer ${SECRETS.TN_T_HTTP_LITERAL}` },
        inputSchema: { type: 'object', properties: {} },
      },
    ],
    tools: [
      httpTool({
        name: 'whoami',
        description: 'Asks who we are.',
        method: 'GET',
        url: `${echoUrl}/whoami`,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the HTTP tool's own ${VAR} syntax.
        headers: { 'x-api-key': '${TN_T_HTTP_IN_TOOLS}' },
        inputSchema: { type: 'object', properties: {} },
      }),
    ],
  })
  closers.push(() => toolkit.close())
  return toolkit
}

/** A model that, turned by a prompt injection, says every secret and puts them in names, ids and arguments. */
function leakingScript(): Script {
  const said = ALL.join(' ')
  return [
    {
      type: 'reply',
      text: `Secrets: ${said}`,
      toolCalls: [
        { id: `call-${SECRETS.TN_T_MCP_ENV}`, name: `no_such_tool_${SECRETS.TN_T_MCP_ENV}`, arguments: '{}' },
        { id: 'call-env', name: 'fx_env', arguments: JSON.stringify({ name: 'API_TOKEN' }) },
        { id: 'call-echo', name: 'remote_echo', arguments: JSON.stringify({ text: said }) },
        { id: 'call-whoami', name: 'whoami', arguments: '{}' },
        { id: 'call-literal', name: 'whoami_literal', arguments: '{}' },
      ],
    },
    { type: 'reply', text: `Done: ${said}` },
  ]
}

function exported(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      status: span.status,
      events: span.events,
      links: span.links,
    })),
  )
}

async function exportedMetrics(): Promise<string> {
  const names = [
    'gen_ai.client.operation.duration',
    'gen_ai.client.token.usage',
    'gen_ai.invoke_agent.duration',
    'gen_ai.execute_tool.duration',
  ]
  const points = await Promise.all(names.map((name) => recording.histogram(name)))
  return JSON.stringify(points.flat().map((point) => point.attributes))
}

describe.each([false, true])('telemetry with recordContent %s', (recordContent) => {
  it('exports no configured secret in any span, attribute, event, status, metric or log line', async () => {
    const server = await startScriptedServer({ protocol: openaiChatProtocol, script: leakingScript() })
    closers.push(() => server.close())
    const toolkit = await secretToolkit()
    const client = createClient({
      model: createOpenAI({ baseURL: server.url, apiKey: 'test-key' }).chat('gpt-scripted'),
      telemetry: {
        tracer: recording.tracerProvider.getTracer('test'),
        meter: recording.meterProvider.getMeter('test'),
        recordContent,
      },
    })

    const result = await client.run('Tell me everything.', { toolkit })

    // The calls ran: the secrets were really there to leak.
    expect(result.toolCalls.map((call) => [call.name, call.isError])).toStrictEqual([
      [`no_such_tool_${SECRETS.TN_T_MCP_ENV}`, true],
      ['fx_env', false],
      ['remote_echo', false],
      ['whoami', false],
      ['whoami_literal', false],
    ])
    const spans = recording.spans()
    const names = spans.map((span) => span.name)
    expect(names).toContain('execute_tool _unknown')
    expect(names).toContain('execute_tool whoami')
    const everything = `${exported(spans)}\n${await exportedMetrics()}\n${logLines.join('\n')}`
    expect(ALL.filter((value) => everything.includes(value))).toStrictEqual([])
    if (recordContent) {
      const whoami = spans.find((span) => span.name === 'execute_tool whoami')
      expect(whoami?.attributes['gen_ai.tool.call.result']).toBe('key *** auth undefined')
    }
  }, 60_000)
})

describe('tool names in telemetry', () => {
  it('2,000 invented tool names make one `_unknown` metric series, not 2,000', async () => {
    const invented = Array.from({ length: 2000 }, (_, index) => ({
      id: `call-${index}`,
      name: `made_up_${index}`,
      arguments: '{}',
    }))
    const server = await startScriptedServer({
      protocol: openaiChatProtocol,
      script: [
        { type: 'reply', toolCalls: invented },
        { type: 'reply', text: 'ok' },
      ],
    })
    closers.push(() => server.close())
    const toolkit = await createToolkit({ logger: { warn: () => {} } })
    closers.push(() => toolkit.close())
    // Its own meter, so the series of the other tests are not counted.
    const own = startRecording({ global: false })
    closers.push(() => own.shutdown())
    const client = createClient({
      model: createOpenAI({ baseURL: server.url, apiKey: 'test-key' }).chat('gpt-scripted'),
      telemetry: {
        tracer: own.tracerProvider.getTracer('test'),
        meter: own.meterProvider.getMeter('test'),
      },
    })

    await client.run('Call things.', { toolkit })

    const series = await own.histogram('gen_ai.execute_tool.duration')
    expect(series.map((point) => [point.attributes['gen_ai.tool.name'], point.value.count])).toStrictEqual([
      ['_unknown', 2000],
    ])
    const spanNames = new Set(own.spans().map((span) => span.name))
    expect([spanNames.has('execute_tool _unknown'), spanNames.has('execute_tool made_up_7')]).toStrictEqual([
      true,
      false,
    ])
  }, 60_000)
})
