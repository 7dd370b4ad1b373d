// A tool name Gemini refuses (a digit first) over `@ai-sdk/google`: the Google provider sends the function
// declarations to Gemini as they are, so the transport declares the name Gemini takes and gives the
// model's calls their own name back. The scripted endpoint answers 400 for a name Gemini would refuse.
import { createOpenAI } from '@ai-sdk/openai'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import {
  declaredNames,
  googleModel as gemini,
  googleEndpoints,
  historyNames,
  onePassword,
  weather,
} from '../support/gemini-refused-names.js'
import { openaiChatProtocol } from '../support/scripted-openai.js'
import { type ScriptedServer, startScriptedServer } from '../support/scripted-server.js'

const servers: ScriptedServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

const serve = googleEndpoints()

describe('a tool name that starts with a digit, over @ai-sdk/google', () => {
  it.each(['run', 'stream'] as const)(
    '%s: declared as Gemini takes it, run under its own name',
    async (mode) => {
      const server = await serve()
      await using toolkit = await createToolkit({ tools: [onePassword, weather] })
      const client = createClient({ model: gemini(server) })
      const result =
        mode === 'run'
          ? await client.run('read it', { toolkit })
          : await client.stream('read it', { toolkit }).result
      expect(server.requests).toHaveLength(2)
      expect(declaredNames(server, 0)).toStrictEqual(['_1password_get_item', 'get_weather'])
      expect(result.text).toBe('done')
      expect(
        result.toolCalls.map((call) => ({ name: call.name, output: call.output, isError: call.isError })),
      ).toStrictEqual([
        { name: '1password_get_item', output: 'secret of github', isError: false },
        { name: 'get_weather', output: 'sunny in Pune', isError: false },
      ])
      // The transcript keeps the tool's own name; Gemini reads back the name it was given.
      const call = result.messages.flatMap((message) =>
        message.role === 'assistant' && typeof message.content !== 'string' ? message.content : [],
      )[0]
      expect(call?.type === 'tool-call' ? call.toolName : undefined).toBe('1password_get_item')
      expect(historyNames(server, 1)).toStrictEqual([
        '_1password_get_item',
        'get_weather',
        '_1password_get_item',
        'get_weather',
      ])
    },
  )

  it('the transcript carries on with another provider under the tool’s own name', async () => {
    const google = await serve()
    await using toolkit = await createToolkit({ tools: [onePassword, weather] })
    const first = await createClient({ model: gemini(google) }).run('read it', { toolkit })
    const openai = await startScriptedServer({
      protocol: openaiChatProtocol,
      script: [{ type: 'reply', text: 'carried on' }],
    })
    servers.push(openai)
    const model = createOpenAI({ baseURL: openai.url, apiKey: 'test-key' }).chat('gpt-5-mini')
    const second = await createClient({ model }).run(
      [...first.messages, { role: 'user', content: 'and again' }],
      {
        toolkit,
      },
    )
    expect(second.text).toBe('carried on')
    const sent: Array<{ tool_calls?: Array<{ function: { name: string } }> }> =
      openai.requests[0]?.body.messages ?? []
    expect(
      sent.flatMap((message) => (message.tool_calls ?? []).map((each) => each.function.name)),
    ).toStrictEqual(['1password_get_item', 'get_weather'])
  })
})
