import type { ModelMessage } from 'ai'
import * as aiTest from 'ai/test'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { ConfigError, ModelCallError } from '../../src/errors.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { type SpecVersion, specFinishReason, specUsage, streamOf } from '../support/spec-results.js'
import { addTool, aiMajor } from './support.js'

type Version = SpecVersion
const usage = specUsage
const finishReason = specFinishReason

/** Turn 1 reasons (signed), then calls `add`; turn 2 answers. The same in every spec version's shape. */
function generateResults(version: Version): unknown[] {
  return [
    {
      content: [
        { type: 'reasoning', text: 'Adding.', providerMetadata: { test: { signature: 'sig-1' } } },
        { type: 'tool-call', toolCallId: 'call-1', toolName: 'add', input: '{"a":20,"b":22}' },
      ],
      finishReason: finishReason(version, 'tool-calls'),
      usage: usage(version, 3, 4),
      warnings: [],
    },
    {
      content: [{ type: 'text', text: '42' }],
      finishReason: finishReason(version, 'stop'),
      usage: usage(version, 5, 1),
      warnings: [],
    },
  ]
}

function streamResults(version: Version): unknown[] {
  return [
    {
      stream: streamOf([
        { type: 'stream-start', warnings: [] },
        { type: 'reasoning-start', id: 'r' },
        { type: 'reasoning-delta', id: 'r', delta: 'Add' },
        { type: 'reasoning-delta', id: 'r', delta: 'ing.' },
        { type: 'reasoning-end', id: 'r', providerMetadata: { test: { signature: 'sig-1' } } },
        { type: 'tool-input-start', id: 'call-1', toolName: 'add' },
        { type: 'tool-input-delta', id: 'call-1', delta: '{"a":20,"b":22}' },
        { type: 'tool-input-end', id: 'call-1' },
        { type: 'tool-call', toolCallId: 'call-1', toolName: 'add', input: '{"a":20,"b":22}' },
        { type: 'finish', finishReason: finishReason(version, 'tool-calls'), usage: usage(version, 3, 4) },
      ]),
    },
    {
      stream: streamOf([
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: '4' },
        { type: 'text-delta', id: 't', delta: '2' },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: finishReason(version, 'stop'), usage: usage(version, 5, 1) },
      ]),
    },
  ]
}

/** A v2 model made by hand (the AI SDK no longer ships a v2 mock): records what it is called with. */
function handMadeV2() {
  const generate = generateResults('v2')
  const streams = streamResults('v2')
  const calls: Array<{ prompt: unknown; tools?: unknown }> = []
  return {
    calls: () => calls,
    model: {
      specificationVersion: 'v2' as const,
      provider: 'hand-made',
      modelId: 'v2-model',
      supportedUrls: {},
      doGenerate: async (options: { prompt: unknown; tools?: unknown }) => {
        calls.push(options)
        return generate.shift()
      },
      doStream: async (options: { prompt: unknown; tools?: unknown }) => {
        calls.push(options)
        return streams.shift()
      },
    },
  }
}

interface Subject {
  version: Version
  make(): { model: unknown; calls(): Array<{ prompt: unknown; tools?: unknown }> }
}

function mockSubject(version: 'v3' | 'v4', Mock: new (options: object) => object): Subject {
  return {
    version,
    make: () => {
      const generate = generateResults(version)
      const streams = streamResults(version)
      const model = new Mock({
        doGenerate: async () => generate.shift(),
        doStream: async () => streams.shift(),
      }) as {
        doGenerateCalls: Array<{ prompt: unknown }>
        doStreamCalls: Array<{ prompt: unknown }>
      }
      return {
        model,
        calls: () => [...model.doGenerateCalls, ...model.doStreamCalls],
      }
    },
  }
}

const mocks = aiTest as unknown as Record<string, (new (options: object) => object) | undefined>
const SUBJECTS: Subject[] = [
  { version: 'v2', make: handMadeV2 },
  mockSubject('v3', mocks.MockLanguageModelV3 as new (options: object) => object),
  ...(mocks.MockLanguageModelV4 === undefined ? [] : [mockSubject('v4', mocks.MockLanguageModelV4)]),
]

it('tests every spec version the installed ai ships a mock for (v4 from ai 7 on)', async () => {
  const expected = aiMajor >= 7 ? ['v2', 'v3', 'v4'] : ['v2', 'v3']
  expect(SUBJECTS.map((subject) => subject.version)).toStrictEqual(expected)
})

describe.each(SUBJECTS)('LanguageModel spec $version', (subject) => {
  it.each(['run', 'stream'] as const)(
    '%s: normalizes usage, finish reasons, tool calls and reasoning',
    async (mode) => {
      const { model, calls: callsOf } = subject.make()
      const toolkit = await createToolkit({ tools: [addTool] })
      // biome-ignore lint/suspicious/noExplicitAny: the subjects are spec objects of three different versions.
      const client = createClient({ model: model as any, system: 'Sum things.' })
      const result =
        mode === 'run'
          ? await client.run('20 + 22?', { toolkit })
          : await client.stream('20 + 22?', { toolkit }).result
      expect(result.text).toBe('42')
      expect(result.usage).toStrictEqual({ inputTokens: 8, outputTokens: 5, totalTokens: 13 })
      expect(result.finishReason).toBe('stop')
      expect(result.toolCalls).toStrictEqual([
        { id: 'call-1', name: 'add', args: { a: 20, b: 22 }, output: '{"sum":42}', isError: false },
      ])
      expect(result.messages).toStrictEqual([
        { role: 'user', content: '20 + 22?' },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Adding.', providerOptions: { test: { signature: 'sig-1' } } },
            { type: 'tool-call', toolCallId: 'call-1', toolName: 'add', input: { a: 20, b: 22 } },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'call-1',
              toolName: 'add',
              output: { type: 'text', value: '{"sum":42}' },
            },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: '42' }] },
      ] satisfies ModelMessage[])
      const calls = callsOf()
      expect(calls).toHaveLength(2)
      expect(calls[0]?.tools).toStrictEqual([
        { type: 'function', name: 'add', description: 'Adds two numbers.', inputSchema: addTool.inputSchema },
      ])
      // The second call's LanguageModel prompt: provider metadata goes back as provider options.
      expect(calls[1]?.prompt).toMatchInlineSnapshot(`
      [
        {
          "content": "Sum things.",
          "role": "system",
        },
        {
          "content": [
            {
              "text": "20 + 22?",
              "type": "text",
            },
          ],
          "role": "user",
        },
        {
          "content": [
            {
              "providerOptions": {
                "test": {
                  "signature": "sig-1",
                },
              },
              "text": "Adding.",
              "type": "reasoning",
            },
            {
              "input": {
                "a": 20,
                "b": 22,
              },
              "toolCallId": "call-1",
              "toolName": "add",
              "type": "tool-call",
            },
          ],
          "role": "assistant",
        },
        {
          "content": [
            {
              "output": {
                "type": "text",
                "value": "{"sum":42}",
              },
              "toolCallId": "call-1",
              "toolName": "add",
              "type": "tool-result",
            },
          ],
          "role": "tool",
        },
      ]
    `)
    },
  )
})

describe('ModelMessage → LanguageModel prompt', () => {
  const pixel = new Uint8Array([137, 80, 78, 71])
  const history: ModelMessage[] = [
    { role: 'system', content: 'From history.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Look:' },
        { type: 'image', image: pixel, mediaType: 'image/png' },
        { type: 'file', data: 'https://example.com/a.pdf', mediaType: 'application/pdf', filename: 'a.pdf' },
      ],
    },
    { role: 'assistant', content: '' },
    { role: 'assistant', content: [{ type: 'text', text: '' }] },
    { role: 'assistant', content: 'Seen.' },
  ]

  it.each([
    ['v3', { data: pixel, url: new URL('https://example.com/a.pdf') }],
    [
      'v4',
      {
        data: { type: 'data', data: pixel },
        url: { type: 'url', url: new URL('https://example.com/a.pdf') },
      },
    ],
  ] as const)(
    '%s: files take the version shape; empty assistant turns are dropped',
    async (version, expected) => {
      const Mock = mocks[version === 'v3' ? 'MockLanguageModelV3' : 'MockLanguageModelV4']
      if (Mock === undefined) {
        expect(aiMajor).toBe(6)
        return
      }
      const [result] = generateResults(version).slice(1)
      const model = new Mock({ doGenerate: async () => result }) as {
        doGenerateCalls: Array<{ prompt: unknown }>
      }
      // biome-ignore lint/suspicious/noExplicitAny: a spec mock of either version.
      await createClient({ model: model as any }).run([{ role: 'user', content: 'And now?' }], { history })
      expect(model.doGenerateCalls[0]?.prompt).toStrictEqual([
        { role: 'system', content: 'From history.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look:' },
            { type: 'file', data: expected.data, mediaType: 'image/png' },
            { type: 'file', data: expected.url, mediaType: 'application/pdf', filename: 'a.pdf' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'Seen.' }] },
        { role: 'user', content: [{ type: 'text', text: 'And now?' }] },
      ])
    },
  )
})

describe('model resolution', () => {
  const global = globalThis as { AI_SDK_DEFAULT_PROVIDER?: unknown }
  afterEach(() => {
    delete global.AI_SDK_DEFAULT_PROVIDER
  })

  it('resolves a string id through globalThis.AI_SDK_DEFAULT_PROVIDER', async () => {
    const asked: string[] = []
    const [result] = generateResults('v3').slice(1)
    global.AI_SDK_DEFAULT_PROVIDER = {
      languageModel: (id: string) => {
        asked.push(id)
        return new (mocks.MockLanguageModelV3 as new (options: object) => object)({
          doGenerate: async () => result,
        })
      },
    }
    const reply = await createClient({ model: 'acme/some-model' }).run('Hi')
    expect(reply.text).toBe('42')
    expect(asked).toStrictEqual(['acme/some-model'])
  })

  it('resolves a string id through the AI Gateway when no default provider is set', async () => {
    // Without credentials the gateway fails before any network access: that proves the id reached it.
    const saved = { key: process.env.AI_GATEWAY_API_KEY, oidc: process.env.VERCEL_OIDC_TOKEN }
    delete process.env.AI_GATEWAY_API_KEY
    delete process.env.VERCEL_OIDC_TOKEN
    try {
      const error = await createClient({ model: 'openai/gpt-5-mini' })
        .run('Hi')
        .catch((caught: unknown) => caught)
      expect(ModelCallError.isInstance(error)).toBe(true)
      expect(((error as ModelCallError).cause as Error).name).toBe('GatewayAuthenticationError')
    } finally {
      if (saved.key !== undefined) process.env.AI_GATEWAY_API_KEY = saved.key
      if (saved.oidc !== undefined) process.env.VERCEL_OIDC_TOKEN = saved.oidc
    }
  })

  it('rejects an unsupported specification version with what to change', () => {
    const v1 = { specificationVersion: 'v1', provider: 'old', modelId: 'm', doGenerate: async () => ({}) }
    // biome-ignore lint/suspicious/noExplicitAny: deliberately not a supported model.
    expect(() => createClient({ model: v1 as any })).toThrow(ConfigError)
    // biome-ignore lint/suspicious/noExplicitAny: deliberately not a supported model.
    expect(() => createClient({ model: v1 as any })).toThrow(
      'implements LanguageModel specification v1; toolnexus needs v2, v3 or v4. Upgrade the provider package',
    )
  })
})

it('bounds tool concurrency and keeps results in call order', async () => {
  let active = 0
  let peak = 0
  const slow = defineTool({
    name: 'slow',
    description: 'Takes longer for smaller n.',
    inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    execute: async ({ n }) => {
      active++
      peak = Math.max(peak, active)
      await new Promise((resolve) => setTimeout(resolve, 60 - Number(n) * 10))
      active--
      return `done ${String(n)}`
    },
  })
  const calls = [1, 2, 3, 4, 5].map((n) => ({
    type: 'tool-call',
    toolCallId: `c${n}`,
    toolName: 'slow',
    input: `{"n":${n}}`,
  }))
  const results = [
    {
      content: calls,
      finishReason: { unified: 'tool-calls', raw: undefined },
      usage: usage('v3', 1, 1),
      warnings: [],
    },
    ...generateResults('v3').slice(1),
  ]
  const model = new (mocks.MockLanguageModelV3 as new (options: object) => object)({
    doGenerate: async () => results.shift(),
  })
  const toolkit = await createToolkit({ tools: [slow] })
  // biome-ignore lint/suspicious/noExplicitAny: a v3 mock.
  const result = await createClient({ model: model as any, toolConcurrency: 2 }).run('Go', { toolkit })
  expect(peak).toBe(2)
  expect(result.toolCalls.map((call) => call.output)).toStrictEqual([
    'done 1',
    'done 2',
    'done 3',
    'done 4',
    'done 5',
  ])
})
