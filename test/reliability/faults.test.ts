// Faults: MCP servers that die or restart, an HTTP tool whose server is down, a model endpoint that fails
// (500, 429 with Retry-After, a cut SSE stream, a stalled connection), a hanging tool, an abort mid-stream.
// A tool failure is an answer the run goes on with; a model failure is retried when transient, then
// rejects the run. Each run ends or goes on that way, with no unhandled rejection, no orphan process, no lost tool result.
import { createServer, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { ModelMessage } from 'ai'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import type { RunResult } from '../../src/contracts/run-types.js'
import { AbortError, ModelCallError } from '../../src/errors.js'
import { httpTool } from '../../src/http/http-tool.js'
import { defineTool } from '../../src/tool/define-tool.js'
import type { Tool, ToolContext } from '../../src/tool/types.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { startHttpFixture } from '../fixtures/mcp/http-server.mjs'
import { startRecordingServer } from '../http/recording-server.js'
import { provider } from '../loop/support.js'
import { isAlive, recordingLogger, stdioServer, waitFor } from '../mcp/mcp-fixtures.js'
import { add } from '../support/add-tool.js'
import { genaiFor, modelReply, startScriptedGemini, streamReply } from '../support/scripted-gemini.js'
import { openaiChatProtocol } from '../support/scripted-openai.js'
import { type RecordedRequest, type ScriptStep, startScriptedServer } from '../support/scripted-server.js'
import { captureUnhandled, expectEveryCallAnswered, settle, type UnhandledCapture } from './support.js'

const openai = provider('openai-chat')
const FAST_RETRIES = { maxRetries: 2, initialDelayMs: 5, maxDelayMs: 2000 }

let unhandled: UnhandledCapture
const cleanups: Array<() => Promise<void>> = []
// Tallied for the notes: how many faults the suite drives and survives.
let faultsSurvived = 0

beforeEach(() => {
  unhandled = captureUnhandled()
})
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  await settle(100)
  unhandled.stop()
  expect(unhandled.reasons).toStrictEqual([])
  faultsSurvived++
})
afterAll(() => {
  console.info(`[reliability] fault scenarios survived: ${faultsSurvived}`)
})

async function scripted(script: ScriptStep[] | ((request: RecordedRequest) => ScriptStep)) {
  const server = await startScriptedServer({
    protocol: openai.protocol,
    script: typeof script === 'function' ? (request) => script(request) : script,
  })
  cleanups.push(() => server.close())
  return server
}

/** A turn that calls tools, `[name, argsJson]` each, with ids `<prefix>-<index>`. */
function calling(prefix: string, ...calls: Array<[string, object | string]>): ScriptStep {
  return {
    type: 'reply',
    toolCalls: calls.map(([name, args], index) => ({
      id: `${prefix}-${index}`,
      name,
      arguments: typeof args === 'string' ? args : JSON.stringify(args),
    })),
  }
}

const reply = (text: string): ScriptStep => ({ type: 'reply', text })

/** Asserts a done run answered every call, and returns each output by call id. */
function outputsOf(result: RunResult<ModelMessage>): Record<string, { output: string; isError: boolean }> {
  expect(result.status).toBe('done')
  expectEveryCallAnswered(result.messages)
  return Object.fromEntries(
    result.toolCalls.map((call) => [call.id, { output: call.output, isError: call.isError }]),
  )
}

function pidOf(output: string): number {
  return (JSON.parse(output) as { pid: number }).pid
}

describe('an MCP stdio server killed mid-session', () => {
  it('answers the call in flight with an error, then reconnects on the next call, leaving no orphan', async () => {
    const toolkit = await createToolkit({
      mcpConfig: { mcpServers: { fx: stdioServer() } },
      logger: recordingLogger().logger,
    })
    cleanups.push(() => toolkit.close())
    const firstPid = pidOf((await toolkit.execute('fx_pids', {})).output)
    const endpoint = await scripted([
      calling('t1', ['fx_slow', { ms: 20_000 }], ['fx_echo', { text: 'before the kill' }]),
      reply('first run over'),
      calling('t2', ['fx_echo', { text: 'after the kill' }], ['fx_pids', {}]),
      reply('second run over'),
    ])
    // Kill once the echo has been answered: by then the slow call, sent first, is surely in flight.
    let echoAnswered: () => void = () => {}
    const echoed = new Promise<void>((resolve) => {
      echoAnswered = resolve
    })
    const client = createClient({
      model: openai.model(endpoint.url),
      hooks: { afterTool: ({ name }) => (name === 'fx_echo' ? echoAnswered() : undefined) },
    })

    const running = client.run('slow one', { toolkit })
    await echoed
    process.kill(firstPid, 'SIGKILL')
    const started = Date.now()
    const first = outputsOf(await running)
    expect(Date.now() - started).toBeLessThan(5000)
    expect(first['t1-0']?.isError).toBe(true)
    expect(first['t1-0']?.output).toMatch(/fx.*(stopped|closed|killed)/i)
    expect(first['t1-1']).toStrictEqual({ output: 'before the kill', isError: false })
    await waitFor(() => !isAlive(firstPid))

    const second = outputsOf(await client.run('again', { toolkit }))
    expect(second['t2-0']).toStrictEqual({ output: 'after the kill', isError: false })
    const secondPid = pidOf(second['t2-1']?.output ?? '')
    expect(secondPid).not.toBe(firstPid)
    expect(toolkit.mcpStatus()).toStrictEqual({ fx: 'connected' })

    await toolkit.close()
    await waitFor(() => !isAlive(secondPid))
  })

  it('killed between runs: every later call reconnects, no call is lost', async () => {
    const toolkit = await createToolkit({
      mcpConfig: { mcpServers: { fx: stdioServer() } },
      logger: recordingLogger().logger,
    })
    cleanups.push(() => toolkit.close())
    const pids: number[] = []
    for (let round = 0; round < 3; round++) {
      const pid = pidOf((await toolkit.execute('fx_pids', {})).output)
      pids.push(pid)
      process.kill(pid, 'SIGKILL')
      await waitFor(() => !isAlive(pid))
      // Ten calls arrive together after the death: one reconnect, ten answers.
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, index) => toolkit.execute('fx_echo', { text: `r${round}-${index}` })),
      )
      expect(results.map((result) => result.output)).toStrictEqual(
        Array.from({ length: 10 }, (_, index) => `r${round}-${index}`),
      )
    }
    expect(new Set(pids).size).toBe(3)
    const last = pidOf((await toolkit.execute('fx_pids', {})).output)
    await toolkit.close()
    await waitFor(() => !isAlive(last))
  })
})

describe('a remote (streamable HTTP) MCP server restarted on the same port', () => {
  const CALL_TIMEOUT_MS = 20_000

  it('answers calls while it is down with error results, and reconnects once it is back', async () => {
    let fixture = await startHttpFixture()
    const port = Number(new URL(fixture.url).port)
    cleanups.push(() => fixture.close())
    const toolkit = await createToolkit({
      // Generous for a busy machine, where connecting can take seconds; a refused connection is answered at once.
      mcpConfig: { mcpServers: { remote: { url: `${fixture.url}/mcp`, timeout: CALL_TIMEOUT_MS } } },
      logger: recordingLogger().logger,
    })
    cleanups.push(() => toolkit.close())
    const endpoint = await scripted((request) => {
      const messages: Array<{ role: string; content: unknown }> = request.body.messages
      const prompt = String(messages.find((message) => message.role === 'user')?.content)
      return messages.at(-1)?.role === 'tool'
        ? reply('ok')
        : calling(prompt, ['remote_echo', { text: prompt }], ['remote_add', { a: 2, b: 3 }])
    })
    const client = createClient({ model: openai.model(endpoint.url) })

    const before = outputsOf(await client.run('up', { toolkit }))
    expect(before['up-0']).toStrictEqual({ output: 'up', isError: false })

    await fixture.close()
    const started = Date.now()
    const down = outputsOf(await client.run('down', { toolkit }))
    // Answered by the refused connection, not by waiting the call timeout out.
    expect(Date.now() - started).toBeLessThan(CALL_TIMEOUT_MS)
    expect(down['down-0']?.isError).toBe(true)
    expect(down['down-1']?.isError).toBe(true)
    expect(down['down-0']?.output).toMatch(/remote/)

    fixture = await startHttpFixture({ port })
    const after = outputsOf(await client.run('back', { toolkit }))
    expect(after).toStrictEqual({
      'back-0': { output: 'back', isError: false },
      'back-1': { output: JSON.stringify({ sum: 5 }), isError: false },
    })
    expect(toolkit.mcpStatus()).toStrictEqual({ remote: 'connected' })
    expect(fixture.sessions().streamable).toBe(1)
    await toolkit.close()
    // close() ends the session on the restarted server too.
    await waitFor(() => fixture.sessions().streamable === 0)
  }, 120_000)
})

describe('an HTTP tool whose server is down', () => {
  it('is answered with an error result naming the failure, and the run goes on', async () => {
    const gone = await startRecordingServer()
    const origin = gone.origin
    await gone.close()
    const lookup = {
      name: 'lookup',
      description: 'Looks an item up.',
      method: 'GET',
      url: `${origin}/items/{id}`,
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      timeoutMs: 2000,
    } as const
    // Defining it alone must work too: the server being down is only found out when it is called.
    expect(httpTool(lookup).name).toBe('lookup')
    const toolkit = await createToolkit({ http: [lookup] })
    const endpoint = await scripted([calling('h', ['lookup', { id: '42' }]), reply('sorry, it is down')])
    const result = await createClient({ model: openai.model(endpoint.url) }).run('item 42?', { toolkit })
    const outputs = outputsOf(result)
    expect(outputs['h-0']?.isError).toBe(true)
    expect(outputs['h-0']?.output).toMatch(/HTTP tool "lookup": the request to GET .* failed: .*ECONNREFUSED/)
    expect(result.text).toBe('sorry, it is down')
  })
})

describe('the model endpoint failing', () => {
  it('500 twice, then success: retried, and the tool results of the turn are all kept', async () => {
    const endpoint = await scripted([
      { type: 'error', status: 500 },
      { type: 'error', status: 503 },
      calling('m', ['add', { a: 1, b: 2 }], ['add', { a: 3, b: 4 }]),
      { type: 'error', status: 500 },
      reply('3 and 7'),
    ])
    const toolkit = await createToolkit({ tools: [add] })
    const result = await createClient({ model: openai.model(endpoint.url), retries: FAST_RETRIES }).run(
      'sums',
      { toolkit },
    )
    expect(outputsOf(result)).toStrictEqual({
      'm-0': { output: '3', isError: false },
      'm-1': { output: '7', isError: false },
    })
    expect(result.text).toBe('3 and 7')
    expect(endpoint.requests).toHaveLength(5)
  })

  it('500 on every attempt: rejects with a ModelCallError after the retries, nothing unhandled', async () => {
    const endpoint = await scripted(() => ({ type: 'error', status: 500, message: 'down for good' }))
    const client = createClient({ model: openai.model(endpoint.url), retries: FAST_RETRIES })
    const error = await client.run('hi').catch((caught: unknown) => caught)
    expect(ModelCallError.isInstance(error)).toBe(true)
    expect(String((error as Error).message)).toMatch(/down for good/)
    expect(endpoint.requests).toHaveLength(3)
  })

  it('429 with Retry-After: 1 is waited out (about a second), then the run completes', async () => {
    const endpoint = await scripted([
      { type: 'error', status: 429, headers: { 'retry-after': '1' }, message: 'slow down' },
      reply('patience paid'),
    ])
    const started = Date.now()
    const result = await createClient({ model: openai.model(endpoint.url), retries: FAST_RETRIES }).run('hi')
    const waited = Date.now() - started
    expect(result.text).toBe('patience paid')
    expect(waited).toBeGreaterThanOrEqual(950)
    expect(waited).toBeLessThan(5000)
  })

  it('a stalled connection is bounded by timeoutMs, in run and in stream', async () => {
    const endpoint = await scripted(() => ({ type: 'hang' }))
    const client = createClient({ model: openai.model(endpoint.url), timeoutMs: 400 })
    for (const mode of ['run', 'stream'] as const) {
      const started = Date.now()
      const error =
        mode === 'run'
          ? await client.run('hi').catch((caught: unknown) => caught)
          : await client.stream('hi').result.catch((caught: unknown) => caught)
      expect(AbortError.isInstance(error)).toBe(true)
      expect((error as Error).message).toBe('The run timed out after 400 ms.')
      expect(Date.now() - started).toBeLessThan(2500)
    }
  })
})

/** How the cutting server answers one streaming request. */
type CutPlan = 'cut-before-text' | 'cut-after-text' | 'stall-after-text' | 'whole'

/**
 * An OpenAI Chat endpoint that renders replies with the scripted OpenAI protocol, then cuts the SSE
 * stream (destroys the socket) or stalls it at a chosen point.
 */
async function startCuttingServer(plans: CutPlan[], step: Extract<ScriptStep, { type: 'reply' }>) {
  const sockets = new Set<Socket>()
  let index = 0
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const recorded: RecordedRequest = {
        method: request.method ?? 'POST',
        path: request.url ?? '/',
        headers: request.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      }
      const plan = plans[index++] ?? 'whole'
      const events = openaiChatProtocol
        .events(step, recorded)
        .map((event) => ('raw' in event ? `${event.raw}\n\n` : `data: ${JSON.stringify(event.data)}\n\n`))
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      // Event 0 opens the turn (no text); event 1 carries the first text.
      const keep = plan === 'cut-before-text' ? 1 : plan === 'whole' ? events.length : 2
      for (const event of events.slice(0, keep)) response.write(event)
      if (plan === 'whole') response.end()
      else if (plan !== 'stall-after-text') setTimeout(() => response.socket?.destroy(), 20)
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    })
  cleanups.push(close)
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => index }
}

describe('a truncated SSE stream', () => {
  const step = { type: 'reply' as const, text: 'Hello there, traveller.' }

  it('cut before any text: retried, and the stream finishes whole', async () => {
    const server = await startCuttingServer(['cut-before-text', 'whole'], step)
    const client = createClient({ model: openai.model(server.url), retries: FAST_RETRIES })
    const deltas: string[] = []
    let finished: RunResult<ModelMessage> | undefined
    for await (const event of client.stream('hi')) {
      if (event.type === 'text-delta') deltas.push(event.text)
      if (event.type === 'finish') finished = event.result
    }
    expect(deltas.join('')).toBe(step.text)
    expect(finished?.text).toBe(step.text)
    expect(server.requests()).toBe(2)
  })

  it('cut after text reached the caller: the run rejects with a ModelCallError (a retry would repeat text)', async () => {
    const server = await startCuttingServer(['cut-after-text', 'whole'], step)
    const client = createClient({ model: openai.model(server.url), retries: FAST_RETRIES })
    const stream = client.stream('hi')
    const deltas: string[] = []
    const error = await (async () => {
      for await (const event of stream) if (event.type === 'text-delta') deltas.push(event.text)
    })().catch((caught: unknown) => caught)
    expect(deltas.join('')).toBe('Hello there,')
    expect(ModelCallError.isInstance(error)).toBe(true)
    await expect(stream.result).rejects.toBe(error)
    expect(server.requests()).toBe(1)
  })

  it('stalled after text: timeoutMs ends it with an AbortError', async () => {
    const server = await startCuttingServer(['stall-after-text'], step)
    const client = createClient({ model: openai.model(server.url), timeoutMs: 500 })
    const started = Date.now()
    const error = await client.stream('hi').result.catch((caught: unknown) => caught)
    expect(AbortError.isInstance(error)).toBe(true)
    expect(Date.now() - started).toBeLessThan(3000)
  })
})

/** A tool that never answers and ignores its signal; records the context it got. */
function hangingTool(): { tool: Tool; contexts: ToolContext[] } {
  const contexts: ToolContext[] = []
  return {
    contexts,
    tool: {
      name: 'hang',
      description: 'Never answers.',
      inputSchema: { type: 'object', properties: {} },
      source: 'custom',
      execute: (_args, context) => {
        contexts.push(context ?? {})
        return new Promise(() => {})
      },
    },
  }
}

describe('a tool that hangs', () => {
  it('is answered by the per-tool timeout (createToolkit({ toolTimeoutMs })), and the run goes on', async () => {
    const { tool, contexts } = hangingTool()
    const echo = defineTool({
      name: 'echo',
      description: 'Echoes.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: ({ text }) => String(text),
    })
    const toolkit = await createToolkit({ tools: [tool, echo], toolTimeoutMs: 200 })
    const endpoint = await scripted([
      calling('h', ['hang', {}], ['echo', { text: 'still here' }], ['hang', {}]),
      reply('done despite the hang'),
    ])
    const started = Date.now()
    const result = await createClient({ model: openai.model(endpoint.url) }).run('go', { toolkit })
    expect(Date.now() - started).toBeLessThan(3000)
    expect(outputsOf(result)).toStrictEqual({
      'h-0': { output: 'Tool "hang" timed out after 200 ms.', isError: true },
      'h-1': { output: 'still here', isError: false },
      'h-2': { output: 'Tool "hang" timed out after 200 ms.', isError: true },
    })
    // The tool was told to stop, even though it ignored it.
    expect(contexts.map((context) => context.signal?.aborted)).toStrictEqual([true, true])
  })

  it('has a finite default timeout (60 s) when none is configured', async () => {
    vi.useFakeTimers()
    try {
      const { tool } = hangingTool()
      const toolkit = await createToolkit({ tools: [tool] })
      const pending = toolkit.execute('hang', {})
      await vi.advanceTimersByTimeAsync(59_999)
      let settled = false
      void pending.then(() => {
        settled = true
      })
      await vi.advanceTimersByTimeAsync(0)
      expect(settled).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      expect(await pending).toStrictEqual({ output: 'Tool "hang" timed out after 60000 ms.', isError: true })
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('an abort mid-stream', () => {
  it('rejects promptly with an AbortError, aborts the running tool, and leaves nothing unhandled', async () => {
    const { tool, contexts } = hangingTool()
    const toolkit = await createToolkit({ tools: [tool] })
    const endpoint = await scripted([
      { type: 'reply', text: 'Let me think.', toolCalls: [{ id: 'a1', name: 'hang', arguments: '{}' }] },
    ])
    const controller = new AbortController()
    const stream = createClient({ model: openai.model(endpoint.url) }).stream('go', {
      toolkit,
      signal: controller.signal,
    })
    const seen: string[] = []
    let abortedAt = 0
    const error = await (async () => {
      for await (const event of stream) {
        seen.push(event.type)
        if (event.type === 'tool-call') {
          abortedAt = Date.now()
          setTimeout(() => controller.abort(new Error('user left')), 50)
        }
      }
    })().catch((caught: unknown) => caught)
    expect(AbortError.isInstance(error)).toBe(true)
    expect(Date.now() - abortedAt).toBeLessThan(1000)
    expect(seen).toContain('text-delta')
    expect(seen).not.toContain('finish')
    await expect(stream.result).rejects.toBe(error)
    await waitFor(() => contexts[0]?.signal?.aborted === true)
  })
})

describe('the @google/genai endpoint failing', () => {
  const genaiAt = (baseUrl: string) => genaiFor(baseUrl)
  const echo = defineTool({
    name: 'echo',
    description: 'Echoes.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    execute: ({ text }) => String(text),
  })

  it('500 then 503, then calls (one unknown, one with a __proto__ key): retried, every call answered', async () => {
    const gemini = await startScriptedGemini({
      script: [
        { kind: 'error', status: 500, message: 'internal' },
        { kind: 'error', status: 503, message: 'overloaded' },
        // Raw JSON, so "__proto__" arrives as an own key, the way a hostile model would send it.
        {
          kind: 'response',
          body: JSON.parse(
            '{"candidates":[{"content":{"role":"model","parts":[' +
              '{"functionCall":{"id":"g1","name":"echo","args":{"text":"fine"}}},' +
              '{"functionCall":{"id":"g2","name":"nope","args":{}}},' +
              '{"functionCall":{"id":"g3","name":"echo","args":{"text":"x","__proto__":{"polluted":"yes"}}}}' +
              ']},"finishReason":"STOP","index":0}]}',
          ),
        },
        modelReply([{ text: 'answered' }]),
      ],
    })
    cleanups.push(() => gemini.close())
    const toolkit = await createToolkit({ tools: [echo] })
    const result = await createClient({
      genai: genaiAt(gemini.baseUrl),
      model: 'gemini-2.5-flash',
      retries: FAST_RETRIES,
    }).run('go', { toolkit })
    expect(result.text).toBe('answered')
    expect(result.toolCalls.map((call) => [call.id, call.isError])).toStrictEqual([
      ['g1', false],
      ['g2', true],
      ['g3', false],
    ])
    expect(result.toolCalls[1]?.output).toContain('Unknown tool "nope"')
    // One user turn answering all three calls, in order.
    const answers = gemini.requests.at(-1)?.body.contents.at(-1)?.parts ?? []
    expect(answers.map((part) => part.functionResponse?.id)).toStrictEqual(['g1', 'g2', 'g3'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('a stalled generateContent and a stalled stream are bounded by timeoutMs', async () => {
    const gemini = await startScriptedGemini({ script: () => ({ kind: 'hang' }) })
    cleanups.push(() => gemini.close())
    const client = createClient({ genai: genaiAt(gemini.baseUrl), model: 'gemini-2.5-flash', timeoutMs: 400 })
    for (const mode of ['run', 'stream'] as const) {
      const started = Date.now()
      const error =
        mode === 'run'
          ? await client.run('hi').catch((caught: unknown) => caught)
          : await client.stream('hi').result.catch((caught: unknown) => caught)
      expect(AbortError.isInstance(error)).toBe(true)
      expect(Date.now() - started).toBeLessThan(2500)
    }
  })

  it('a stream cut before its first chunk is retried; one cut after text rejects with a ModelCallError', async () => {
    // The scripted server streams; a socket destroyed under it is the cut. First request: cut at once.
    let requests = 0
    const sockets = new Set<Socket>()
    const whole = streamReply([[{ text: 'Hello ' }], [{ text: 'world' }]])
    const server: Server = createServer((request, response) => {
      request.resume()
      request.on('end', () => {
        const attempt = requests++
        response.writeHead(200, { 'content-type': 'text/event-stream' })
        const chunks = whole.kind === 'stream' ? whole.chunks : []
        const cutAfter = attempt === 0 ? 0 : attempt === 2 ? 1 : chunks.length
        for (const chunk of chunks.slice(0, cutAfter))
          response.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`)
        if (cutAfter === chunks.length) response.end()
        else setTimeout(() => response.socket?.destroy(), 20)
      })
    })
    server.on('connection', (socket) => {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy()
          server.close(() => resolve())
        }),
    )
    const client = createClient({
      genai: genaiAt(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
      model: 'gemini-2.5-flash',
      retries: FAST_RETRIES,
    })
    const first = await client.stream('hi').result
    expect(first.text).toBe('Hello world')
    expect(requests).toBe(2)

    const stream = client.stream('again')
    const deltas: string[] = []
    const error = await (async () => {
      for await (const event of stream) if (event.type === 'text-delta') deltas.push(event.text)
    })().catch((caught: unknown) => caught)
    expect(deltas).toStrictEqual(['Hello '])
    expect(ModelCallError.isInstance(error)).toBe(true)
    expect(requests).toBe(3)
  })
})
