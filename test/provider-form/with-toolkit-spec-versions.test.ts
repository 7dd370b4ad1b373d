import { generateText, type LanguageModel, streamText } from 'ai'
import { describe, expect, it } from 'vitest'
import { withToolkit } from '../../src/provider-form/with-toolkit.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { addTool, aiMajor } from '../loop/support.js'
import { type SpecVersion, specFinishReason, specUsage, streamOf } from '../support/spec-results.js'

type Version = SpecVersion
const usage = specUsage
const finishReason = specFinishReason

/**
 * A model of one specification version: it calls `add` until the prompt holds a tool result, then
 * answers with the result's text. It keeps every prompt it was sent.
 */
function modelOf(version: Version) {
  const prompts: unknown[][] = []
  const answered = (prompt: Array<{ role: string; content: unknown }>): string | undefined => {
    const tool = prompt.find((message) => message.role === 'tool') as
      | { content: Array<{ output: { value: string } }> }
      | undefined
    return tool?.content[0]?.output.value
  }
  return {
    prompts,
    model: {
      specificationVersion: version,
      provider: 'test.chat',
      modelId: `test-${version}`,
      supportedUrls: {},
      async doGenerate(options: { prompt: Array<{ role: string; content: unknown }> }) {
        prompts.push(options.prompt)
        const result = answered(options.prompt)
        return {
          content:
            result === undefined
              ? [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'add', input: '{"a":20,"b":22}' }]
              : [{ type: 'text', text: `The sum is ${result}.` }],
          finishReason: finishReason(version, result === undefined ? 'tool-calls' : 'stop'),
          usage: result === undefined ? usage(version, 3, 4) : usage(version, 5, 1),
          warnings: [],
        }
      },
      async doStream(options: { prompt: Array<{ role: string; content: unknown }> }) {
        prompts.push(options.prompt)
        const result = answered(options.prompt)
        const parts =
          result === undefined
            ? [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'add', input: '{"a":20,"b":22}' }]
            : [
                { type: 'text-start', id: 't' },
                { type: 'text-delta', id: 't', delta: `The sum is ${result}.` },
                { type: 'text-end', id: 't' },
              ]
        return {
          stream: streamOf([
            { type: 'stream-start', warnings: [] },
            ...parts,
            {
              type: 'finish',
              finishReason: finishReason(version, result === undefined ? 'tool-calls' : 'stop'),
              usage: result === undefined ? usage(version, 3, 4) : usage(version, 5, 1),
            },
          ]),
        }
      },
    },
  }
}

// `ai` 6 takes v2 and v3 models; `ai` 7 takes v4 too.
const VERSIONS: Version[] = aiMajor >= 7 ? ['v2', 'v3', 'v4'] : ['v2', 'v3']

describe.each(VERSIONS)('withToolkit over a %s model', (version) => {
  it('is a model of the same version whose one call sums its inner calls’ usage in that version’s shape', async () => {
    const { model, prompts } = modelOf(version)
    const toolkit = await createToolkit({ tools: [addTool] })
    const wrapped = withToolkit(model as unknown as Exclude<LanguageModel, string>, { toolkit })
    expect(wrapped.specificationVersion).toBe(version)
    expect(wrapped.modelId).toBe(`test-${version}`)

    const result = await wrapped.doGenerate({
      prompt: [{ role: 'user', content: [{ type: 'text', text: '20 + 22?' }] }],
    } as never)
    expect(prompts).toHaveLength(2)
    expect(result.usage).toStrictEqual(
      version === 'v2'
        ? { inputTokens: 8, outputTokens: 5, totalTokens: 13 }
        : {
            inputTokens: { total: 8, noCache: 8 },
            outputTokens: { total: 5, text: 5 },
          },
    )
    expect(result.finishReason).toStrictEqual(finishReason(version, 'stop'))
    expect(result.content.map((part) => part.type)).toStrictEqual(['tool-call', 'tool-result', 'text'])
  })

  it.each(['generateText', 'streamText'] as const)(
    '%s records the toolkit’s call and answers',
    async (mode) => {
      const { model } = modelOf(version)
      const toolkit = await createToolkit({ tools: [addTool] })
      const wrapped = withToolkit(model as unknown as Exclude<LanguageModel, string>, { toolkit })
      const result =
        mode === 'generateText'
          ? await generateText({ model: wrapped, prompt: '20 + 22?' })
          : streamText({ model: wrapped, prompt: '20 + 22?' })
      expect(await result.text).toBe('The sum is {"sum":42}.')
      expect((await result.toolResults).map((each) => [each.toolName, each.output])).toStrictEqual([
        ['add', '{"sum":42}'],
      ])
      expect((await result.usage).inputTokens).toBe(8)
    },
  )
})
