// toAISDK for Gemini: a tool set is keyed by name, and `@ai-sdk/google` declares each key as the function's
// name, so for Google a tool whose name Gemini refuses (a digit first) is keyed by the name Gemini takes and
// still runs the tool. The scripted endpoint answers 400 for a name Gemini refuses.
import { generateText, stepCountIs } from 'ai'
import { describe, expect, it } from 'vitest'
import { toAISDK } from '../../src/adapters/to-ai-sdk.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import {
  declaredNames,
  googleEndpoints,
  googleModel,
  onePassword,
  weather,
} from '../support/gemini-refused-names.js'

const serveGoogle = googleEndpoints()

describe('toAISDK for Gemini, a tool name that starts with a digit', () => {
  it.each([
    { form: "toAISDK(tools, { provider: 'google' })", provider: 'google', toolkit: false },
    { form: 'toAISDK(tools, { provider: model.provider })', provider: 'model.provider', toolkit: false },
    { form: "tk.toAISDK({ provider: 'google' })", provider: 'google', toolkit: true },
  ])('$form: generateText over @ai-sdk/google runs both tools', async ({ provider, toolkit }) => {
    const server = await serveGoogle()
    const model = googleModel(server)
    const options = { provider: provider === 'model.provider' ? model.provider : provider }
    await using tk = await createToolkit({ tools: [onePassword, weather] })
    const tools = toolkit ? tk.toAISDK(options) : toAISDK([onePassword, weather], options)
    expect(Object.keys(tools)).toStrictEqual(['_1password_get_item', 'get_weather'])
    const result = await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: 'read it' })
    expect(declaredNames(server, 0)).toStrictEqual(['_1password_get_item', 'get_weather'])
    expect(result.text).toBe('done')
    expect(result.steps[0]?.toolResults.map((each) => [each.toolName, each.output])).toStrictEqual([
      ['_1password_get_item', 'secret of github'],
      ['get_weather', 'sunny in Pune'],
    ])
  })

  it.each([{}, { provider: 'openai.chat' }])('keeps every name for another provider (%o)', (options) => {
    expect(Object.keys(toAISDK([onePassword, weather], options))).toStrictEqual([
      '1password_get_item',
      'get_weather',
    ])
  })
})
