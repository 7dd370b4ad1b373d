// The server the MCP conformance suite's server scenarios run against: a gateway, createMcpHandler on
// 127.0.0.1 (port from PORT, else any), over a toolkit with native tools and an MCP server on the v2 SDK
// (conformance-source.ts, named `test`) whose resources, prompts, completions, logs, progress and
// embedded resources the gateway passes through. Prints its URL.
import { createMcpHandler } from '../../src/mcp-server/create-mcp-handler.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { serveSource } from './conformance-source.js'
import { serveFetch } from './serve-fetch.js'
import { RED_PIXEL } from './served-toolkit.js'

// A tiny valid WAV: a RIFF header and no samples.
const SILENT_WAV = Buffer.from(
  'RIFF$\u0000\u0000\u0000WAVEfmt \u0010\u0000\u0000\u0000\u0001\u0000\u0001\u0000\u0040\u001f\u0000\u0000\u0080\u003e\u0000\u0000\u0002\u0000\u0010\u0000data\u0000\u0000\u0000\u0000',
  'latin1',
).toString('base64')

/** Resolves after `ms` (never when infinite), or rejects with its reason when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = Number.isFinite(ms) ? setTimeout(resolve, ms) : undefined
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        reject(signal.reason)
      },
      { once: true },
    )
  })
}

// The handler closes a call's stream after STREAM_MS; test_reconnection answers well after it.
const STREAM_MS = 200
const RECONNECTION_MS = 1500

const source = await serveSource()
const toolkit = await createToolkit({
  mcpConfig: { mcpServers: { test: { url: `${source.url}/mcp` } } },
  tools: [
    // The tasks extension's scenarios call these: one tool answered at once, the others served as tasks.
    defineTool({
      name: 'greet',
      description: 'Greets someone.',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      execute: ({ name }) => `Hello, ${name}!`,
    }),
    defineTool({
      name: 'slow_compute',
      description: 'Sleeps for `seconds`, then answers.',
      inputSchema: {
        type: 'object',
        properties: { seconds: { type: 'number' }, label: { type: 'string' } },
        required: ['seconds'],
      },
      longRunning: true,
      execute: async ({ seconds, label }, { signal }) => {
        await sleep(seconds * 1000, signal)
        return `Computed ${label ?? 'result'} after ${seconds} s.`
      },
    }),
    defineTool({
      name: 'failing_job',
      description: 'Fails after a second; served only as a task.',
      longRunning: { required: true },
      execute: async (_args, { signal }) => {
        await sleep(1000, signal)
        throw new Error('the job failed')
      },
    }),
    defineTool({
      name: 'protocol_error_job',
      description: 'Never finishes: its task fails at its deadline.',
      longRunning: { timeoutMs: 1000 },
      execute: (_args, { signal }) => sleep(Number.POSITIVE_INFINITY, signal),
    }),
    defineTool({
      name: 'multi_input',
      description: 'Asks two questions at once (inside its task when it is served as one).',
      longRunning: true,
      execute: async (_args, { inputRound }) => {
        if (inputRound === undefined) return 'No caller to ask.'
        const question = (message: string) => ({
          method: 'elicitation/create',
          params: { mode: 'form', message, requestedSchema: { type: 'object', properties: {} } },
        })
        const answers =
          inputRound.resumed?.responses ??
          (await inputRound.ask({ first: question('First question?'), second: question('Second question?') }))
        return `Answered: ${Object.keys(answers).sort().join(', ')}.`
      },
    }),
    // Gathers a name in a round of input before its task starts; the task answers with it.
    defineTool({
      name: 'test_tool_with_task',
      description: 'Asks for a name, then greets it inside its task.',
      longRunning: { required: true, inputFirst: true },
      execute: async (_args, { inputRound }) => {
        if (inputRound === undefined) return 'No caller to ask.'
        const answers =
          inputRound.resumed?.responses ??
          (await inputRound.ask({
            user_name: {
              method: 'elicitation/create',
              params: {
                mode: 'form',
                message: 'What is your name?',
                requestedSchema: {
                  type: 'object',
                  properties: { name: { type: 'string' } },
                  required: ['name'],
                },
              },
            },
          }))
        const answer = answers.user_name as { action?: string; content?: { name?: unknown } } | undefined
        return answer?.action === 'accept' ? `Hello, ${String(answer.content?.name)}!` : 'No name given.'
      },
    }),
    defineTool({
      name: 'confirm_delete',
      description: 'Deletes a file once the user approves.',
      inputSchema: { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] },
      needsApproval: true,
      longRunning: true,
      execute: ({ filename }) => `Deleted ${filename}.`,
    }),
    // Outlasts its SSE stream, which the handler closes after a moment: the client resumes it.
    defineTool({
      name: 'test_reconnection',
      description: 'Answers after its stream was closed and resumed.',
      execute: async (_args, { signal }) => {
        await sleep(RECONNECTION_MS, signal)
        return 'Reconnection test completed successfully.'
      },
    }),
    defineTool({
      name: 'test_simple_text',
      description: 'Returns simple text.',
      execute: () => 'This is a simple text response for testing.',
    }),
    defineTool({
      name: 'test_image_content',
      description: 'Returns an image.',
      execute: () => ({
        output: '',
        isError: false,
        media: [{ type: 'image', mediaType: 'image/png', data: RED_PIXEL }],
      }),
    }),
    defineTool({
      name: 'test_audio_content',
      description: 'Returns audio.',
      execute: () => ({
        output: '',
        isError: false,
        media: [{ type: 'audio', mediaType: 'audio/wav', data: SILENT_WAV }],
      }),
    }),
    defineTool({
      name: 'test_error_handling',
      description: 'Always fails.',
      execute: () => {
        throw new Error('This tool intentionally returns an error for testing')
      },
    }),
    defineTool({
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'address',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          kind: { type: 'string' },
          code: { type: 'string' },
        },
        // Composition and conditional keywords, which a server must pass on untouched.
        allOf: [{ anyOf: [{ required: ['name'] }, { required: ['address'] }] }],
        if: { properties: { kind: { const: 'postal' } } },
        // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here, not a thenable.
        then: { required: ['code'] },
        else: {},
        additionalProperties: false,
      },
      execute: (args) => JSON.stringify(args),
    }),
    // Its region is mirrored into the Mcp-Param-Region header, which a 2026-07-28 call must carry.
    defineTool({
      name: 'test_region_lookup',
      description: 'Looks a region up; the region rides in a header as well.',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', description: 'The region', 'x-mcp-header': 'Region' },
          query: { type: 'string', description: 'What to look up' },
        },
        required: ['region'],
      },
      execute: ({ region }) => `Region ${region}.`,
    }),
  ],
})

// Every caller is let through (a loopback test server); tools that need approval are served to them.
const handler = createMcpHandler({
  toolkit,
  allowedHosts: ['localhost', '127.0.0.1', '[::1]'],
  authorize: () => true,
  closeCallStreamsAfterMs: STREAM_MS,
})
const server = await serveFetch(handler, Number(process.env.PORT ?? 0))
process.stdout.write(`${server.url}/mcp\n`)
const stop = (): void => {
  server
    .close()
    .then(() => toolkit.close())
    .then(() => source.close())
    .then(() => process.exit(0))
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
