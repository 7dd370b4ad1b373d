import { describe, expect, it } from 'vitest'
import type { SpecMessage } from '../../src/ai-sdk/language-model-spec.js'
import { convertProviderFormPrompt } from '../../src/provider-form/convert-provider-form-prompt.js'

const mark = { toolnexus: {} }
const call = (id: string, extra: object = {}) => ({
  type: 'tool-call' as const,
  toolCallId: id,
  toolName: 'add',
  input: { a: 1 },
  providerExecuted: true,
  providerOptions: { ...mark },
  ...extra,
})
const result = (id: string, output: unknown = { type: 'text', value: 'two' }) => ({
  type: 'tool-result' as const,
  toolCallId: id,
  toolName: 'add',
  output,
  providerOptions: { ...mark },
})
const text = (value: string) => ({ type: 'text' as const, text: value })

describe('convertProviderFormPrompt', () => {
  it('splits the toolkit’s calls and results back into turns, without the mark or the provider-executed flag', () => {
    const prompt: SpecMessage[] = [
      { role: 'user', content: [text('Add twice.')] },
      {
        role: 'assistant',
        content: [
          text('One.'),
          call('c1'),
          result('c1'),
          text('Two.'),
          call('c2'),
          result('c2', { type: 'error-json', value: 'failed' }),
          text('Done.'),
        ],
      },
    ]
    expect(convertProviderFormPrompt(prompt)).toStrictEqual([
      prompt[0],
      {
        role: 'assistant',
        content: [text('One.'), { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: { a: 1 } }],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'add', output: { type: 'text', value: 'two' } },
        ],
      },
      {
        role: 'assistant',
        content: [text('Two.'), { type: 'tool-call', toolCallId: 'c2', toolName: 'add', input: { a: 1 } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'add',
            output: { type: 'error-text', value: 'failed' },
          },
        ],
      },
      { role: 'assistant', content: [text('Done.')] },
    ])
  })

  it('merges the toolkit’s results into the tool message of the caller’s own calls of the same turn', () => {
    const own = { type: 'tool-call' as const, toolCallId: 'mine', toolName: 'lookup', input: {} }
    const answer = {
      type: 'tool-result' as const,
      toolCallId: 'mine',
      toolName: 'lookup',
      output: { type: 'text', value: 'ok' },
    }
    const converted = convertProviderFormPrompt([
      { role: 'assistant', content: [call('c1'), own, result('c1')] },
      { role: 'tool', content: [answer] },
    ])
    expect(converted.map((message) => message.role)).toStrictEqual(['assistant', 'tool'])
    expect(
      ((converted[1]?.content ?? []) as Array<{ toolCallId: string }>).map((part) => part.toolCallId),
    ).toStrictEqual(['c1', 'mine'])
  })

  it('keeps other provider metadata (a thought signature) and leaves a provider’s own executed tools untouched', () => {
    const search = {
      type: 'tool-call' as const,
      toolCallId: 's',
      toolName: 'web_search',
      input: {},
      providerExecuted: true,
    }
    const found = {
      type: 'tool-result' as const,
      toolCallId: 's',
      toolName: 'web_search',
      output: { type: 'json', value: [] },
    }
    const signed = call('c1', { providerOptions: { ...mark, google: { thoughtSignature: 'sig' } } })
    const converted = convertProviderFormPrompt([
      { role: 'assistant', content: [search, found, signed, result('c1')] },
    ])
    expect(converted).toStrictEqual([
      {
        role: 'assistant',
        content: [
          search,
          found,
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: 'add',
            input: { a: 1 },
            providerOptions: { google: { thoughtSignature: 'sig' } },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'add', output: { type: 'text', value: 'two' } },
        ],
      },
    ])
  })

  it('leaves out a call of the toolkit’s that has no result (a step cut short)', () => {
    const converted = convertProviderFormPrompt([
      { role: 'assistant', content: [text('Trying.'), call('c1')] },
    ])
    expect(converted).toStrictEqual([{ role: 'assistant', content: [text('Trying.')] }])
  })
})
