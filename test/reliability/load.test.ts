// Load: many runs at once on one client and one toolkit, many calls at once to one MCP server, and a
// long-lived HTTP server sharing one toolkit across requests. Every answer must belong to its own run.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ModelMessage } from 'ai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import type { RunResult } from '../../src/contracts/run-types.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { provider } from '../loop/support.js'
import { isAlive, recordingLogger, stdioServer } from '../mcp/mcp-fixtures.js'
import { type RecordedRequest, startScriptedServer } from '../support/scripted-server.js'
import { expectEveryCallAnswered, failOnUnhandledRejections } from './support.js'

const openai = provider('openai-chat')

/** A tool whose answer names the run it was called for; a random delay interleaves concurrent runs. */
const stamp = defineTool({
  name: 'stamp',
  description: 'Stamps a tag with a part name.',
  inputSchema: {
    type: 'object',
    properties: { tag: { type: 'string' }, part: { type: 'string' } },
    required: ['tag', 'part'],
    additionalProperties: false,
  },
  execute: async ({ tag, part }) => {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 20))
    return `${String(tag)}/${String(part)}`
  },
})

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part.text ?? '').join('')
  return ''
}

/**
 * The model of every load test, over the OpenAI Chat wire protocol: the first turn calls `tools` with the
 * user's prompt as argument; the next turn answers with every tool output, so a mixed-up run shows.
 */
function echoingScript(tools: (prompt: string) => Array<{ name: string; args: object }>) {
  return (request: RecordedRequest) => {
    const messages: Array<{ role: string; content: unknown }> = request.body.messages
    const prompt = textOf(messages.find((message) => message.role === 'user')?.content)
    if (messages.at(-1)?.role === 'tool') {
      const outputs = messages.filter((message) => message.role === 'tool').map((m) => textOf(m.content))
      return { type: 'reply' as const, text: `${prompt} got ${outputs.join(' | ')}` }
    }
    return {
      type: 'reply' as const,
      toolCalls: tools(prompt).map((call, index) => ({
        id: `${prompt}-call-${index}`,
        name: call.name,
        arguments: JSON.stringify(call.args),
      })),
    }
  }
}

failOnUnhandledRejections()

// 200 model calls through the real SDK and 200 tool calls: seconds on an idle machine, far more on a busy
// one. The bound is there to end a hung run, not to time the work.
const LOAD_TIMEOUT_MS = 180_000

describe('100 concurrent runs on one client and one toolkit', () => {
  it('keep their own transcripts and results, in run and in stream', {
    timeout: LOAD_TIMEOUT_MS,
  }, async () => {
    const endpoint = await startScriptedServer({
      protocol: openai.protocol,
      script: echoingScript((prompt) => [
        { name: 'stamp', args: { tag: prompt, part: 'a' } },
        { name: 'stamp', args: { tag: prompt, part: 'b' } },
      ]),
    })
    try {
      const client = createClient({ model: openai.model(endpoint.url) })
      await using toolkit = await createToolkit({ tools: [stamp] })
      const runs = 100
      const started = Date.now()
      const results = await Promise.all(
        Array.from({ length: runs }, async (_, index): Promise<RunResult<ModelMessage>> => {
          const prompt = `run-${index}`
          if (index % 2 === 0) return client.run(prompt, { toolkit })
          let finished: RunResult<ModelMessage> | undefined
          for await (const event of client.stream(prompt, { toolkit })) {
            if (event.type === 'finish') finished = event.result
          }
          if (finished === undefined) throw new Error(`stream ${prompt} ended without finish`)
          return finished
        }),
      )
      const elapsed = Date.now() - started
      results.forEach((result, index) => {
        const tag = `run-${index}`
        expect(result.status).toBe('done')
        expect(result.text).toBe(`${tag} got ${tag}/a | ${tag}/b`)
        expect(result.toolCalls.map((call) => [call.id, call.args, call.output])).toStrictEqual([
          [`${tag}-call-0`, { tag, part: 'a' }, `${tag}/a`],
          [`${tag}-call-1`, { tag, part: 'b' }, `${tag}/b`],
        ])
        expect(expectEveryCallAnswered(result.messages)).toHaveLength(2)
        // No trace of any other run in this transcript.
        const transcript = JSON.stringify(result.messages)
        expect(transcript.match(/run-\d+/g)?.every((seen) => seen === tag)).toBe(true)
        expect(result.turns).toBe(2)
      })
      expect(endpoint.requests).toHaveLength(runs * 2)
      console.info(`[reliability] ${runs} concurrent runs (200 model calls, 200 tool calls) in ${elapsed} ms`)
    } finally {
      await endpoint.close()
    }
  })
})

describe('one stdio MCP server under concurrent calls', () => {
  let toolkit: Toolkit
  beforeAll(async () => {
    toolkit = await createToolkit({
      mcpConfig: { mcpServers: { fx: stdioServer() } },
      logger: recordingLogger().logger,
    })
  })
  afterAll(async () => {
    await toolkit.close()
  })

  it('answers 300 calls sent at once, each with its own result', async () => {
    const calls = 300
    const started = Date.now()
    const results = await Promise.all(
      Array.from({ length: calls }, (_, index) =>
        index % 3 === 0
          ? toolkit.execute('fx_add', { a: index, b: 1000 })
          : toolkit.execute('fx_echo', { text: `message-${index}` }),
      ),
    )
    const elapsed = Date.now() - started
    results.forEach((result, index) => {
      expect(result.isError).toBe(false)
      expect(result.output).toBe(index % 3 === 0 ? JSON.stringify({ sum: index + 1000 }) : `message-${index}`)
    })
    const counted = await toolkit.execute('fx_calls', {})
    expect(Number(counted.output)).toBe(calls + 1)
    expect(toolkit.mcpStatus()).toStrictEqual({ fx: 'connected' })
    console.info(`[reliability] ${calls} concurrent MCP stdio calls in ${elapsed} ms`)
  })
})

describe('a long-lived HTTP server sharing one client and one toolkit across requests', () => {
  it('answers 60 concurrent requests, each with its own tools results, and keeps serving', {
    timeout: LOAD_TIMEOUT_MS,
  }, async () => {
    const endpoint = await startScriptedServer({
      protocol: openai.protocol,
      script: echoingScript((prompt) => [
        { name: 'fx_echo', args: { text: prompt } },
        { name: 'stamp', args: { tag: prompt, part: 'native' } },
      ]),
    })
    const toolkit = await createToolkit({
      tools: [stamp],
      mcpConfig: { mcpServers: { fx: stdioServer() } },
      logger: recordingLogger().logger,
    })
    const serverPid = JSON.parse((await toolkit.execute('fx_pids', {})).output).pid as number
    const client = createClient({ model: openai.model(endpoint.url) })
    const app: Server = createServer((request, response) => {
      const prompt = new URL(request.url ?? '/', 'http://localhost').searchParams.get('q') ?? ''
      client.run(prompt, { toolkit }).then(
        (result) => {
          response.writeHead(200, { 'content-type': 'application/json' })
          response.end(
            JSON.stringify({ text: result.text, outputs: result.toolCalls.map((call) => call.output) }),
          )
        },
        (error: unknown) => {
          response.writeHead(500)
          response.end(String(error))
        },
      )
    })
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
    const { port } = app.address() as AddressInfo
    try {
      const ask = async (prompt: string) => {
        const response = await fetch(`http://127.0.0.1:${port}/?q=${prompt}`)
        expect(response.status).toBe(200)
        return (await response.json()) as { text: string; outputs: string[] }
      }
      for (const wave of [0, 1]) {
        const requests = 60
        const answers = await Promise.all(
          Array.from({ length: requests }, (_, index) => ask(`req-${wave}-${index}`)),
        )
        answers.forEach((answer, index) => {
          const tag = `req-${wave}-${index}`
          expect(answer).toStrictEqual({
            text: `${tag} got ${tag} | ${tag}/native`,
            outputs: [tag, `${tag}/native`],
          })
        })
      }
      // The same server process answered all 120 requests: nothing was restarted or leaked.
      expect(JSON.parse((await toolkit.execute('fx_pids', {})).output).pid).toBe(serverPid)
      expect(toolkit.mcpStatus()).toStrictEqual({ fx: 'connected' })
    } finally {
      await new Promise<void>((resolve) => app.close(() => resolve()))
      await toolkit.close()
      await endpoint.close()
    }
    expect(isAlive(serverPid)).toBe(false)
  })
})
