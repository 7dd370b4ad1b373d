// The loop with tool search on: the first request declares the always-loaded tools and `search_tools`,
// the model searches, the tools found are appended from the next request on, and it calls one of them.
import { createOpenAI } from '@ai-sdk/openai'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import {
  type GeminiReply,
  genaiFor,
  modelReply,
  type RecordedGeminiRequest,
  type ScriptedGemini,
  startScriptedGemini,
} from '../support/scripted-gemini.js'
import { openaiChatProtocol } from '../support/scripted-openai.js'
import { type ScriptStep, startScriptedServer } from '../support/scripted-server.js'
import { declaredNames, FOUND, loadedNames, sampleTools, searchThenCall } from './sample-tools.js'

const PINNED = 'pdf-reader-mcp_read_pdf'
const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

async function searchingToolkit(): Promise<Toolkit> {
  const toolkit = await createToolkit({ tools: sampleTools(), search: { alwaysLoaded: [PINNED], limit: 3 } })
  closers.push(() => toolkit.close())
  return toolkit
}

describe('tool search in the AI SDK loop', () => {
  it.each(['run', 'stream'] as const)(
    '%s: search_tools first, the found tools appended, then called',
    async (mode) => {
      const server = await startScriptedServer({ protocol: openaiChatProtocol, script: searchThenCall })
      closers.push(() => server.close())
      const toolkit = await searchingToolkit()
      const client = createClient({
        model: createOpenAI({ baseURL: server.url, apiKey: 'k' }).chat('gpt-scripted'),
      })
      const result =
        mode === 'run'
          ? await client.run('How is NVDA doing?', { toolkit })
          : await client.stream('How is NVDA doing?', { toolkit }).result
      expect(result.text).toBe('NVDA is up.')
      expect(result.toolCalls.map((call) => [call.name, call.isError])).toStrictEqual([
        ['search_tools', false],
        ['yahoo-finance_get_current_stock_price', false],
      ])
      expect(result.toolCalls[1]?.output).toBe(
        'yahoo-finance_get_current_stock_price ran with {"symbol":"NVDA"}',
      )
      const [first, second, third] = server.requests.map((request) => request.body.tools)
      expect(server.requests.map(declaredNames)).toStrictEqual([
        [PINNED, 'search_tools'],
        [PINNED, 'search_tools', ...FOUND],
        [PINNED, 'search_tools', ...FOUND],
      ])
      // Appended: the earlier definitions are sent again byte for byte, in the same place.
      expect(second.slice(0, first.length)).toStrictEqual(first)
      expect(third).toStrictEqual(second)
      expect(first[1]).toStrictEqual({
        type: 'function',
        function: {
          name: 'search_tools',
          description: expect.stringContaining('Finds tools for a task'),
          parameters: {
            type: 'object',
            properties: { query: { type: 'string', description: expect.any(String) } },
            required: ['query'],
            additionalProperties: false,
          },
        },
      })
    },
  )

  it('answers a search_tools call without a query with an error the model can read', async () => {
    const script: ScriptStep[] = [
      { type: 'reply', toolCalls: [{ id: 'c1', name: 'search_tools', arguments: '{"query":42}' }] },
      { type: 'reply', text: 'ok' },
    ]
    const server = await startScriptedServer({ protocol: openaiChatProtocol, script })
    closers.push(() => server.close())
    const client = createClient({
      model: createOpenAI({ baseURL: server.url, apiKey: 'k' }).chat('gpt-scripted'),
    })
    const result = await client.run('hi', { toolkit: await searchingToolkit() })
    expect(result.toolCalls.map((call) => [call.output, call.isError])).toStrictEqual([
      ['search_tools needs a "query": the task, in a few words.', true],
    ])
    expect(server.requests.map(declaredNames)[1]).toStrictEqual([PINNED, 'search_tools'])
  })
})

describe('tool search in the genai loop', () => {
  it('declares search_tools, then appends what it found, and calls it', async () => {
    const script = (request: RecordedGeminiRequest, index: number): GeminiReply => {
      if (index === 0)
        return modelReply([
          { functionCall: { name: 'search_tools', args: { query: 'current stock price' } } },
        ])
      if (index === 1) {
        const parts = request.body.contents.flatMap((content) => content.parts ?? [])
        const answer = parts.find((part) => part.functionResponse !== undefined)?.functionResponse
        const [first] = loadedNames(String(answer?.response.output))
        return modelReply([{ functionCall: { name: String(first), args: { symbol: 'NVDA' } } }])
      }
      return modelReply([{ text: 'NVDA is up.' }])
    }
    const gemini: ScriptedGemini = await startScriptedGemini({ script })
    closers.push(() => gemini.close())
    const genai = genaiFor(gemini.baseUrl)
    const client = createClient({ genai, model: 'gemini-2.5-flash' })
    const result = await client.run('How is NVDA doing?', { toolkit: await searchingToolkit() })
    expect(result.toolCalls.map((call) => call.name)).toStrictEqual([
      'search_tools',
      'yahoo-finance_get_current_stock_price',
    ])
    const declared = gemini.requests.map((request) =>
      (request.body.tools ?? []).flatMap((tool) =>
        (tool.functionDeclarations ?? []).map((declaration) => declaration.name),
      ),
    )
    expect(declared).toStrictEqual([
      [PINNED, 'search_tools'],
      [PINNED, 'search_tools', ...FOUND],
      [PINNED, 'search_tools', ...FOUND],
    ])
  })
})
