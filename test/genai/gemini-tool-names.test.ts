// A tool name Gemini refuses (it wants a letter or an underscore first, as @google/genai's typings say) is
// declared with `_` before it; the model's call under that name runs the tool, and doctor says so.
import { afterEach, describe, expect, it } from 'vitest'
import { toGemini } from '../../src/adapters/to-gemini.js'
import { createClient } from '../../src/client/create-client.js'
import { diagnoseTools } from '../../src/doctor/diagnose-tools.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { geminiToolName } from '../../src/tool/names.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { genaiFor, modelReply, type ScriptedGemini, startScriptedGemini } from '../support/scripted-gemini.js'

const onePassword = defineTool({
  name: '1password_get_item',
  description: 'Reads an item from the vault.',
  inputSchema: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] },
  execute: ({ item }) => `secret of ${item}`,
})

let server: ScriptedGemini | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('a tool name that starts with a digit, for Gemini', () => {
  it.each([
    { name: 'get_weather', sentAs: 'get_weather' },
    { name: '_private', sentAs: '_private' },
    { name: '1password_get_item', sentAs: '_1password_get_item' },
    { name: '-dash', sentAs: '_-dash' },
  ])('$name is declared as $sentAs', ({ name, sentAs }) => {
    expect(geminiToolName(name)).toBe(sentAs)
  })

  it('keeps 64 characters at most, stable and distinct', () => {
    const long = `9${'x'.repeat(63)}`
    expect(geminiToolName(long)).toHaveLength(64)
    expect(geminiToolName(long)).toBe(geminiToolName(long))
    expect(geminiToolName(long)).not.toBe(geminiToolName(`8${'x'.repeat(63)}`))
  })

  it('toGemini declares it renamed, in both schema forms', () => {
    for (const parametersJsonSchema of [false, true]) {
      const [wrapper] = toGemini([onePassword], { parametersJsonSchema })
      expect(wrapper.functionDeclarations.map((declaration) => declaration.name)).toStrictEqual([
        '_1password_get_item',
      ])
    }
  })

  it('a genai run: the declared name reaches Gemini, and the call under it runs the tool', async () => {
    server = await startScriptedGemini({
      script: [
        modelReply([{ functionCall: { name: '_1password_get_item', args: { item: 'github' } } }]),
        modelReply([{ text: 'done' }]),
      ],
    })
    await using toolkit = await createToolkit({ tools: [onePassword] })
    const genai = genaiFor(server.baseUrl)
    const result = await createClient({ genai, model: 'gemini-2.5-flash' }).run('read it', { toolkit })
    const declared = server.requests[0]?.body.tools?.[0]?.functionDeclarations
    expect(declared?.map((declaration: { name: string }) => declaration.name)).toStrictEqual([
      '_1password_get_item',
    ])
    expect(result.toolCalls.map((call) => [call.output, call.isError])).toStrictEqual([
      ['secret of github', false],
    ])
    // The answer goes back under the name Gemini called.
    expect(server.requests[1]?.body.contents[2]?.parts?.[0]?.functionResponse?.name).toBe(
      '_1password_get_item',
    )
    expect(toolkit.get('_1password_get_item')).toBe(toolkit.get('1password_get_item'))
  })

  it('doctor reports the rename for Gemini only', () => {
    const [report] = diagnoseTools([onePassword]).tools
    expect(report?.providers.gemini).toStrictEqual({
      status: 'adapted',
      changes: ['tool renamed 1password_get_item → _1password_get_item'],
      lost: [],
    })
    expect(report?.providers.anthropic).toStrictEqual({ status: 'as-is' })
  })
})
