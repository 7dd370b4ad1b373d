import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider'
import { MockLanguageModelV3 } from 'ai/test'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { weatherTool } from './support.js'

function reply(calls: Array<{ id: string; name: string; input: string }>): LanguageModelV3GenerateResult {
  return {
    content: calls.length
      ? calls.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: call.id,
          toolName: call.name,
          input: call.input,
        }))
      : [{ type: 'text' as const, text: 'done' }],
    finishReason: { unified: calls.length ? 'tool-calls' : 'stop', raw: undefined },
    usage: {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    },
    warnings: [],
  }
}

describe('the loop reads the toolkit tools every turn', () => {
  it('a tool added while a run is going is declared at the next model call and can be called', async () => {
    const toolkit = await createToolkit({ tools: [] })
    const unlock = defineTool({
      name: 'unlock',
      description: 'Adds the weather tool.',
      inputSchema: { type: 'object', properties: {} },
      execute: () => {
        toolkit.register(weatherTool)
        return 'unlocked'
      },
    })
    toolkit.register(unlock)
    const answers = [
      reply([{ id: 'a', name: 'unlock', input: '{}' }]),
      reply([{ id: 'b', name: 'get_weather', input: '{"city":"Oslo"}' }]),
      reply([]),
    ]
    let index = 0
    const model = new MockLanguageModelV3({
      doGenerate: async () => answers[index++] as LanguageModelV3GenerateResult,
    })
    const result = await createClient({ model }).run('go', { toolkit })
    expect(model.doGenerateCalls.map((call) => call.tools?.map((tool) => tool.name))).toStrictEqual([
      ['unlock'],
      ['unlock', 'get_weather'],
      ['unlock', 'get_weather'],
    ])
    expect(result.toolCalls.map((call) => [call.name, call.isError, call.output])).toStrictEqual([
      ['unlock', false, 'unlocked'],
      ['get_weather', false, 'Sunny and 31°C in Oslo.'],
    ])
  })

  it('an unchanged toolkit hands the loop the same array every turn', async () => {
    const toolkit = await createToolkit({ tools: [weatherTool] })
    expect(toolkit.tools()).toBe(toolkit.tools())
  })
})
