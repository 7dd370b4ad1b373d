import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { defineTool } from '../../src/tool/define-tool.js'
import type { Tool } from '../../src/tool/types.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { type ScriptedServer, startScriptedServer } from '../support/scripted-server.js'
import { addTool, provider, weatherTool } from './support.js'

const servers: ScriptedServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

const explode: Tool = defineTool({
  name: 'explode',
  description: 'Always throws.',
  inputSchema: { type: 'object', properties: {} },
  execute: () => {
    throw new Error('boom')
  },
})

// Ignores its signal and never settles: only the toolkit's deadline can answer it.
const hang: Tool = {
  name: 'hang',
  description: 'Never returns.',
  inputSchema: { type: 'object', properties: {} },
  source: 'custom',
  execute: () => new Promise(() => {}),
}

const quiet = { warn: () => {} }

describe.each(['openai-chat', 'anthropic'] as const)('bad input from the model (%s)', (name) => {
  it.each(['run', 'stream'] as const)(
    '%s: every call in a bad batch gets an error result and the run goes on',
    async (mode) => {
      // Anthropic's non-streaming API can only carry JSON objects; broken arguments travel in its stream.
      const broken = name === 'openai-chat' || mode === 'stream'
      const calls = [
        { id: 'c1', name: 'get_weather', arguments: '{"city":"Chennai"}' },
        { id: 'c2', name: 'no_such_tool', arguments: '{}' },
        ...(broken
          ? [
              { id: 'c3', name: 'add', arguments: '{"a": 2, "b":' },
              { id: 'c4', name: 'add', arguments: '[1,2]' },
            ]
          : []),
        { id: 'c5', name: 'add', arguments: '{"a":"two","b":3}' },
        { id: 'c6', name: 'explode', arguments: '{}' },
        { id: 'c7', name: 'hang', arguments: '{}' },
      ]
      const server = await startScriptedServer({
        protocol: provider(name).protocol,
        script: [
          { type: 'reply', toolCalls: calls },
          { type: 'reply', text: 'Some tools failed; Chennai is sunny.' },
        ],
      })
      servers.push(server)
      const toolkit = await createToolkit({
        tools: [weatherTool, addTool, explode, hang],
        toolTimeoutMs: 150,
        logger: quiet,
      })
      const client = createClient({ model: provider(name).model(server.url) })
      const started = Date.now()
      const result =
        mode === 'run'
          ? await client.run('Go.', { toolkit })
          : await (async () => {
              const stream = client.stream('Go.', { toolkit })
              for await (const _event of stream) {
                // drain
              }
              return stream.result
            })()

      expect(Date.now() - started).toBeLessThan(5_000)
      expect(result.status).toBe('done')
      expect(result.text).toBe('Some tools failed; Chennai is sunny.')
      const byId = Object.fromEntries(result.toolCalls.map((call) => [call.id, call]))
      expect(result.toolCalls.map((call) => call.id)).toStrictEqual(calls.map((call) => call.id))
      expect(byId.c1).toStrictEqual({
        id: 'c1',
        name: 'get_weather',
        args: { city: 'Chennai' },
        output: 'Sunny and 31°C in Chennai.',
        isError: false,
      })
      expect(byId.c2?.isError).toBe(true)
      expect(byId.c2?.output).toBe(
        'Unknown tool "no_such_tool". Available tools: get_weather, add, explode, hang',
      )
      if (broken) {
        expect(byId.c3).toStrictEqual({
          id: 'c3',
          name: 'add',
          args: '{"a": 2, "b":',
          output: expect.stringMatching(
            /^Invalid arguments for tool "add": they are not valid JSON \(.+\)\. Received: \{"a": 2, "b":\. Send the arguments as one JSON object matching the tool's schema\.$/,
          ),
          isError: true,
        })
        expect(byId.c4).toStrictEqual({
          id: 'c4',
          name: 'add',
          args: '[1,2]',
          output:
            'Invalid arguments for tool "add": expected a JSON object, got an array. Received: [1,2]. Send the arguments as one JSON object matching the tool\'s schema.',
          isError: true,
        })
      }
      expect(byId.c5?.isError).toBe(true)
      expect(byId.c5?.output).toMatch(/^Invalid arguments for tool "add": .*a/)
      expect(byId.c6?.isError).toBe(true)
      expect(byId.c6?.output).toContain('boom')
      expect(byId.c7).toStrictEqual({
        id: 'c7',
        name: 'hang',
        args: {},
        output: 'Tool "hang" timed out after 150 ms.',
        isError: true,
      })

      // The model is told about every call, in call order, errors marked as errors.
      const tool = result.messages.find((message) => message.role === 'tool')
      expect(
        tool?.content.map((part) => part.type === 'tool-result' && [part.toolCallId, part.output.type]),
      ).toStrictEqual(calls.map((call) => [call.id, call.id === 'c1' ? 'text' : 'error-text']))
      expect(server.requests).toHaveLength(2)
    },
  )
})

describe('a model that never stops calling tools', () => {
  const endless = (url: string, maxTurns?: number) => {
    const client = createClient({
      model: provider('openai-chat').model(url),
      ...(maxTurns === undefined ? {} : { maxTurns }),
    })
    return client
  }

  it.each([
    [3, 3],
    [undefined, 10],
  ])(
    'stops after maxTurns=%s model calls with status max-turns, every call answered',
    async (maxTurns, expected) => {
      const server = await startScriptedServer({
        protocol: provider('openai-chat').protocol,
        script: (_request, index) => ({
          type: 'reply',
          toolCalls: [{ id: `loop_${index}`, name: 'get_weather', arguments: '{"city":"Chennai"}' }],
        }),
      })
      servers.push(server)
      const toolkit = await createToolkit({ tools: [weatherTool] })
      const result = await endless(server.url, maxTurns).run('Forever.', { toolkit })
      expect(result.status).toBe('max-turns')
      expect(result.turns).toBe(expected)
      expect(result.finishReason).toBe('tool-calls')
      expect(server.requests).toHaveLength(expected)
      expect(result.toolCalls).toHaveLength(expected)
      // The transcript ends with the answers, so it can be passed back as history.
      expect(result.messages.at(-1)?.role).toBe('tool')
      expect(result.usage.totalTokens).toBe(15 * expected)
    },
  )

  it('answers a call even when no toolkit was given', async () => {
    const server = await startScriptedServer({
      protocol: provider('openai-chat').protocol,
      script: [
        { type: 'reply', toolCalls: [{ id: 'x', name: 'ghost', arguments: '{}' }] },
        { type: 'reply', text: 'ok' },
      ],
    })
    servers.push(server)
    const result = await createClient({ model: provider('openai-chat').model(server.url) }).run('Hi')
    expect(result.toolCalls).toStrictEqual([
      {
        id: 'x',
        name: 'ghost',
        args: {},
        output: 'Unknown tool "ghost". No tools are available in this run.',
        isError: true,
      },
    ])
    expect(server.requests[0]?.body.tools).toBe(undefined)
  })
})
