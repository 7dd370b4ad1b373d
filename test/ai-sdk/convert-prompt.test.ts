// Which transcript messages go into a LanguageModel prompt as they are and which are converted: an
// assistant or tool message whose parts every version reads alike is sent as it is (the loop's own turns),
// anything that changes shape (a string, empty text, a file, a media output, a name Gemini refuses) is
// converted, and the transcript itself is never changed.
import type { ModelMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import {
  ConvertedPrompt,
  convertToLanguageModelPrompt,
} from '../../src/ai-sdk/convert-to-language-model-prompt.js'

const calls: ModelMessage = {
  role: 'assistant',
  content: [
    { type: 'reasoning', text: 'Adding.', providerOptions: { test: { signature: 'sig-1' } } },
    { type: 'tool-call', toolCallId: 'call-1', toolName: 'add', input: { a: 20, b: 22 } },
  ],
}
const results: ModelMessage = {
  role: 'tool',
  content: [
    { type: 'tool-result', toolCallId: 'call-1', toolName: 'add', output: { type: 'text', value: '42' } },
  ],
}
const png = { type: 'image-data' as const, data: 'iVBORw0KGgo=', mediaType: 'image/png' }
const chart: ModelMessage = {
  role: 'tool',
  content: [
    {
      type: 'tool-result',
      toolCallId: 'call-2',
      toolName: 'chart',
      output: { type: 'content', value: [{ type: 'text', text: 'a chart' }, png] },
    },
  ],
}

describe('convertToLanguageModelPrompt', () => {
  it.each(['v2', 'v3', 'v4'] as const)('%s: the loop’s own turns go in as they are', (version) => {
    const user: ModelMessage = { role: 'user', content: 'Add 20 and 22.' }
    const prompt = convertToLanguageModelPrompt({
      messages: [user, calls, results],
      version,
      system: 'Be brief.',
    })
    expect(prompt).toStrictEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Add 20 and 22.' }] },
      calls,
      results,
    ])
    expect(prompt[2]).toBe(calls)
    expect(prompt[3]).toBe(results)
  })

  it('converts an assistant message with empty text or a file, leaving it as it was', () => {
    const withEmptyText: ModelMessage = {
      role: 'assistant',
      content: [
        { type: 'text', text: '' },
        { type: 'tool-call', toolCallId: 'call-1', toolName: 'add', input: {} },
      ],
    }
    const withFile: ModelMessage = {
      role: 'assistant',
      content: [{ type: 'file', data: 'aGk=', mediaType: 'text/plain' }],
    }
    const before = structuredClone([withEmptyText, withFile])
    const prompt = convertToLanguageModelPrompt({ messages: [withEmptyText, withFile], version: 'v4' })
    expect(prompt).toStrictEqual([
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'add', input: {} }],
      },
      {
        role: 'assistant',
        content: [{ type: 'file', data: { type: 'data', data: 'aGk=' }, mediaType: 'text/plain' }],
      },
    ])
    expect([withEmptyText, withFile]).toStrictEqual(before)
  })

  it.each([
    ['v2', { type: 'media', data: png.data, mediaType: 'image/png' }, false],
    ['v3', png, true],
    ['v4', { type: 'file', mediaType: 'image/png', data: { type: 'data', data: png.data } }, false],
  ] as const)('%s: a media output takes the version’s shape', (version, image, asItIs) => {
    const [sent] = convertToLanguageModelPrompt({ messages: [chart], version })
    expect(sent).toStrictEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call-2',
          toolName: 'chart',
          output: { type: 'content', value: [{ type: 'text', text: 'a chart' }, image] },
        },
      ],
    })
    expect(sent === chart).toBe(asItIs)
  })

  it('v2 takes only the results of a tool message', () => {
    const mixed = {
      role: 'tool',
      content: [
        { type: 'tool-approval-response', approvalId: 'a-1', approved: true },
        ...(results.content as unknown[]),
      ],
    } as ModelMessage
    expect(convertToLanguageModelPrompt({ messages: [mixed], version: 'v2' })).toStrictEqual([results])
    expect(convertToLanguageModelPrompt({ messages: [mixed], version: 'v3' })[0]).toBe(mixed)
  })

  it('renames calls and results for Gemini in copies, the transcript keeping the tools’ own names', () => {
    const before = structuredClone([calls, results])
    const toolName = (name: string) => `_${name}`
    const prompt = new ConvertedPrompt().prompt([calls, results], 'v3', toolName, undefined)
    expect(prompt.map((message) => message.content)).toMatchObject([
      [{ type: 'reasoning' }, { type: 'tool-call', toolName: '_add' }],
      [{ type: 'tool-result', toolName: '_add' }],
    ])
    expect([calls, results]).toStrictEqual(before)
  })
})
