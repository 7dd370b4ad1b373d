// The provider form over `@ai-sdk/google`: a toolkit tool whose name Gemini refuses (a digit first) is declared
// under the name Gemini takes, and the caller sees its calls and results under the tool's own name, in a
// generated result and in every streamed part. The scripted endpoint answers 400 for a name Gemini refuses.
import { generateText, streamText } from 'ai'
import { describe, expect, it } from 'vitest'
import { withToolkit } from '../../src/provider-form/with-toolkit.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import {
  CALLS_BOTH,
  declaredNames,
  googleEndpoints,
  googleModel,
  historyNames,
  onePassword,
  weather,
} from '../support/gemini-refused-names.js'

const serveGoogle = googleEndpoints()

const OWN_NAMES = ['1password_get_item', 'get_weather']

describe('withToolkit over @ai-sdk/google, a tool name that starts with a digit', () => {
  it.each(['generate', 'stream'] as const)(
    '%s: declared as Gemini takes it, reported under its own name',
    async (mode) => {
      const server = await serveGoogle()
      await using toolkit = await createToolkit({ tools: [onePassword, weather] })
      const model = withToolkit(googleModel(server), { toolkit })
      // Every part the caller saw that names a tool, by its type.
      const named: Array<[string, string]> = []
      let result: { text: string; toolCalls: Array<{ toolName: string }>; toolResults: unknown[] }
      if (mode === 'generate') {
        const generated = await generateText({ model, prompt: 'read it' })
        for (const part of generated.steps.flatMap((step) => step.content)) {
          if ('toolName' in part) named.push([part.type, part.toolName])
        }
        result = generated
      } else {
        const streamed = streamText({ model, prompt: 'read it' })
        for await (const part of streamed.fullStream) {
          if ('toolName' in part) named.push([part.type, part.toolName])
        }
        result = {
          text: await streamed.text,
          toolCalls: await streamed.toolCalls,
          toolResults: await streamed.toolResults,
        }
      }
      expect(server.requests).toHaveLength(2)
      expect(declaredNames(server, 0)).toStrictEqual(['_1password_get_item', 'get_weather'])
      expect(declaredNames(server, 1)).toStrictEqual(['_1password_get_item', 'get_weather'])
      // The inner model reads its history back under the names it was given.
      expect(historyNames(server, 1)).toStrictEqual([
        '_1password_get_item',
        'get_weather',
        '_1password_get_item',
        'get_weather',
      ])
      expect(result.text).toBe('done')
      expect(result.toolCalls.map((call) => call.toolName)).toStrictEqual(OWN_NAMES)
      expect(
        result.toolResults.map((each) => {
          const { toolName, output } = each as { toolName: string; output: unknown }
          return [toolName, output]
        }),
      ).toStrictEqual([
        ['1password_get_item', 'secret of github'],
        ['get_weather', 'sunny in Pune'],
      ])
      expect(named.length).toBeGreaterThanOrEqual(4)
      expect(named.filter(([, name]) => !OWN_NAMES.includes(name))).toStrictEqual([])
      if (mode === 'stream') {
        expect(named.filter(([type]) => type === 'tool-input-start').map(([, name]) => name)).toStrictEqual(
          OWN_NAMES,
        )
      }
    },
  )

  it('a conversation continued from the response messages sends Gemini the names it was given', async () => {
    const server = await serveGoogle([...CALLS_BOTH, { type: 'reply', text: 'again' }])
    await using toolkit = await createToolkit({ tools: [onePassword, weather] })
    const model = withToolkit(googleModel(server), { toolkit })
    const first = await generateText({ model, prompt: 'read it' })
    const second = await generateText({
      model,
      messages: [
        { role: 'user', content: 'read it' },
        ...first.response.messages,
        { role: 'user', content: 'and again' },
      ],
    })
    expect(second.text).toBe('again')
    expect(historyNames(server, 2)).toStrictEqual([
      '_1password_get_item',
      'get_weather',
      '_1password_get_item',
      'get_weather',
    ])
  })
})
