import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider'
import type { ModelMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import type { Hooks } from '../../src/contracts/run-types.js'
import { InMemoryConversationStore } from '../../src/stores/in-memory-conversation-store.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import type { Toolkit } from '../../src/toolkit/toolkit.js'
import { wrappedToolkit } from '../support/wrapped-toolkit.js'
import { addTool, weatherTool } from './support.js'

function reply(options: {
  text?: string
  calls?: Array<{ id: string; name: string; input: string }>
}): LanguageModelV3GenerateResult {
  return {
    content: [
      ...(options.text === undefined ? [] : [{ type: 'text' as const, text: options.text }]),
      ...(options.calls ?? []).map((call) => ({
        type: 'tool-call' as const,
        toolCallId: call.id,
        toolName: call.name,
        input: call.input,
      })),
    ],
    finishReason: { unified: options.calls?.length ? 'tool-calls' : 'stop', raw: undefined },
    usage: {
      inputTokens: { total: 4, noCache: 4, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 2, text: 2, reasoning: undefined },
    },
    warnings: [],
  }
}

/** A mock whose every answer is computed from the call, and which records the calls. */
function scriptedModel(
  answer: (call: LanguageModelV3CallOptions, index: number) => LanguageModelV3GenerateResult,
) {
  let index = 0
  return new MockLanguageModelV3({ doGenerate: async (call) => answer(call, index++) })
}

/** The text of every user message in a prompt. */
function userTexts(prompt: LanguageModelV3CallOptions['prompt']): string[] {
  return prompt.flatMap((message) =>
    message.role === 'user'
      ? message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))
      : [],
  )
}

describe('hooks', () => {
  it('beforeModel replaces the messages and tools of one call; afterModel sees each response', async () => {
    const model = scriptedModel((_call, index) =>
      index === 0
        ? reply({ calls: [{ id: 'w', name: 'get_weather', input: '{"city":"Oslo"}' }] })
        : reply({ text: 'done' }),
    )
    const toolkit = await createToolkit({ tools: [weatherTool, addTool] })
    const seen: Array<{ turn: number; tools: string[]; messages: number }> = []
    const responses: Array<{ turn: number; response: unknown }> = []
    const hooks: Hooks<ModelMessage> = {
      beforeModel: ({ messages, tools, turn }) => {
        seen.push({ turn, tools: tools.map((tool) => tool.name), messages: messages.length })
        return {
          messages: [...messages, { role: 'user', content: `note for turn ${turn}` }],
          tools: tools.filter((tool) => tool.name === 'get_weather'),
        }
      },
      afterModel: ({ response, turn }) => {
        responses.push({ turn, response })
      },
    }
    const result = await createClient({ model, hooks }).run('Oslo?', { toolkit })
    expect(seen).toStrictEqual([
      { turn: 1, tools: ['get_weather', 'add'], messages: 1 },
      { turn: 2, tools: ['get_weather', 'add'], messages: 3 },
    ])
    expect(model.doGenerateCalls.map((call) => call.tools?.map((tool) => tool.name))).toStrictEqual([
      ['get_weather'],
      ['get_weather'],
    ])
    expect(userTexts(model.doGenerateCalls[1]?.prompt ?? [])).toStrictEqual(['Oslo?', 'note for turn 2'])
    // The notes went to the model only: the transcript stays what happened.
    expect(result.messages.filter((message) => message.role === 'user')).toStrictEqual([
      { role: 'user', content: 'Oslo?' },
    ])
    expect(
      responses.map(({ turn, response }) => [
        turn,
        (response as LanguageModelV3GenerateResult).content.length,
      ]),
    ).toStrictEqual([
      [1, 1],
      [2, 1],
    ])
  })

  it('beforeModel may rewrite an earlier message on a later turn: the model sees the rewrite', async () => {
    const model = scriptedModel((_call, index) =>
      index === 0
        ? reply({ calls: [{ id: 'w', name: 'get_weather', input: '{"city":"Oslo"}' }] })
        : reply({ text: 'done' }),
    )
    const toolkit = await createToolkit({ tools: [weatherTool] })
    const hooks: Hooks<ModelMessage> = {
      // From turn 2 on, the question is sent redacted: a new message object in the same place.
      beforeModel: ({ messages, turn }) =>
        turn === 1
          ? undefined
          : {
              messages: messages.map((message, index) =>
                index === 0 ? { role: 'user', content: '[redacted]' } : message,
              ),
            },
    }
    const result = await createClient({ model, hooks }).run('My PIN is 1234. Oslo?', { toolkit })
    expect(model.doGenerateCalls.map((call) => userTexts(call.prompt))).toStrictEqual([
      ['My PIN is 1234. Oslo?'],
      ['[redacted]'],
    ])
    // The later messages of turn 2's prompt are the run's own, unchanged.
    expect(model.doGenerateCalls[1]?.prompt.map((message) => message.role)).toStrictEqual([
      'user',
      'assistant',
      'tool',
    ])
    expect(result.messages[0]).toStrictEqual({ role: 'user', content: 'My PIN is 1234. Oslo?' })
  })

  it('beforeTool can answer a call without running the tool, or change its arguments; afterTool can replace a result', async () => {
    const model = scriptedModel((_call, index) =>
      index === 0
        ? reply({
            calls: [
              { id: 'blocked', name: 'get_weather', input: '{"city":"Atlantis"}' },
              { id: 'changed', name: 'add', input: '{"a":1,"b":1}' },
              { id: 'rewritten', name: 'get_weather', input: '{"city":"Lima"}' },
            ],
          })
        : reply({ text: 'done' }),
    )
    const calls: string[] = []
    const toolkit = await createToolkit({ tools: [weatherTool, addTool] })
    const result = await createClient({
      model,
      hooks: {
        beforeTool: ({ toolCallId, name, args }) => {
          calls.push(`${toolCallId}:${name}:${JSON.stringify(args)}`)
          if (toolCallId === 'blocked')
            return { result: { output: 'Atlantis is not allowed.', isError: true } }
          if (toolCallId === 'changed') return { args: { a: 40, b: 2 } }
          return undefined
        },
        afterTool: ({ toolCallId, result }) =>
          toolCallId === 'rewritten'
            ? { result: { output: `${result.output} (checked)`, isError: false } }
            : undefined,
      },
    }).run('Go', { toolkit })
    expect(calls).toStrictEqual([
      'blocked:get_weather:{"city":"Atlantis"}',
      'changed:add:{"a":1,"b":1}',
      'rewritten:get_weather:{"city":"Lima"}',
    ])
    expect(result.toolCalls).toStrictEqual([
      {
        id: 'blocked',
        name: 'get_weather',
        args: { city: 'Atlantis' },
        output: 'Atlantis is not allowed.',
        isError: true,
      },
      { id: 'changed', name: 'add', args: { a: 40, b: 2 }, output: '{"sum":42}', isError: false },
      {
        id: 'rewritten',
        name: 'get_weather',
        args: { city: 'Lima' },
        output: 'Sunny and 31°C in Lima. (checked)',
        isError: false,
      },
    ])
    const toolMessage = model.doGenerateCalls[1]?.prompt.find((message) => message.role === 'tool')
    expect(toolMessage?.content).toStrictEqual([
      {
        type: 'tool-result',
        toolCallId: 'blocked',
        toolName: 'get_weather',
        output: { type: 'error-text', value: 'Atlantis is not allowed.' },
      },
      {
        type: 'tool-result',
        toolCallId: 'changed',
        toolName: 'add',
        output: { type: 'text', value: '{"sum":42}' },
      },
      {
        type: 'tool-result',
        toolCallId: 'rewritten',
        toolName: 'get_weather',
        output: { type: 'text', value: 'Sunny and 31°C in Lima. (checked)' },
      },
    ])
  })

  it('a hook that throws rejects the run with its error', async () => {
    const model = scriptedModel(() => reply({ calls: [{ id: 'x', name: 'add', input: '{"a":1,"b":2}' }] }))
    const toolkit = await createToolkit({ tools: [addTool] })
    const run = createClient({
      model,
      hooks: {
        beforeTool: () => {
          throw new Error('policy service down')
        },
      },
    }).run('Go', { toolkit })
    await expect(run).rejects.toThrow('policy service down')
  })
})

describe('system prompt', () => {
  it('is system + a blank line + the skills prompt, whichever exist', async () => {
    const model = scriptedModel(() => reply({ text: 'ok' }))
    const withSkills = await createToolkit({ skillsDir: 'test/fixtures/skills' })
    const skillsPrompt = withSkills.skillsPrompt()
    expect(skillsPrompt).toContain('hello-world')
    await createClient({ model, system: 'Be brief.' }).run('a', { toolkit: withSkills })
    await createClient({ model }).run('b', { toolkit: withSkills })
    await createClient({ model, system: 'Be brief.' }).run('c')
    await createClient({ model }).run('d')
    expect(
      model.doGenerateCalls.map((call) => call.prompt.filter((message) => message.role === 'system')),
    ).toStrictEqual([
      [{ role: 'system', content: `Be brief.\n\n${skillsPrompt}` }],
      [{ role: 'system', content: skillsPrompt }],
      [{ role: 'system', content: 'Be brief.' }],
      [],
    ])
    expect(model.doGenerateCalls[0]?.tools?.map((tool) => tool.name)).toStrictEqual(['skill'])
    expect(model.doGenerateCalls[2]?.tools).toBe(undefined)
    expect(model.doGenerateCalls[2]?.toolChoice).toBe(undefined)
  })
})

describe('the prompt of each model call', () => {
  it('is its own array: what the model keeps of one call stays as it was, whatever later turns add', async () => {
    const model = scriptedModel((_call, index) =>
      index < 2
        ? reply({ calls: [{ id: `w${index}`, name: 'get_weather', input: '{"city":"Oslo"}' }] })
        : reply({ text: 'done' }),
    )
    const toolkit = await createToolkit({ tools: [weatherTool] })
    const hooks: Hooks<ModelMessage> = {
      // Turn 2 alone sends a note after the transcript; turns 1 and 3 send the run's own messages.
      beforeModel: ({ messages, turn }) =>
        turn === 2 ? { messages: [...messages, { role: 'user', content: 'note' }] } : undefined,
    }
    const result = await createClient({ model, system: 'Be brief.', hooks }).run('Oslo?', { toolkit })
    expect(result.text).toBe('done')
    const prompts = model.doGenerateCalls.map((call) => call.prompt)
    expect(prompts.map((prompt) => prompt.map((message) => message.role))).toStrictEqual([
      ['system', 'user'],
      ['system', 'user', 'assistant', 'tool', 'user'],
      ['system', 'user', 'assistant', 'tool', 'assistant', 'tool'],
    ])
    expect(prompts.map((prompt) => userTexts(prompt))).toStrictEqual([
      ['Oslo?'],
      ['Oslo?', 'note'],
      ['Oslo?'],
    ])
    expect(new Set(prompts).size).toBe(3)
    // Each message of the transcript is converted once per run: later calls send the same conversion.
    expect(prompts[2]?.[1]).toBe(prompts[0]?.[1])
    expect(prompts[2]?.[3]).toBe(prompts[1]?.[3])
  })
})

describe('the toolkit a run is given', () => {
  type Wrap = (toolkit: Toolkit, seen: string[]) => Toolkit
  // The toolkit's own execute replaced on the object, and a proxy with an execute of its own.
  const onTheObject: Wrap = (toolkit, seen) => {
    const execute = toolkit.execute.bind(toolkit)
    toolkit.execute = (name, args, context) => {
      seen.push(`wrapped ${name} ${context?.toolCallId}`)
      return execute(name, args, context)
    }
    return toolkit
  }
  const throughAProxy: Wrap = (toolkit, seen) =>
    wrappedToolkit(toolkit, {
      execute: (name, args, context) => {
        seen.push(`wrapped ${name} ${context?.toolCallId}`)
        return toolkit.execute(name, args, context)
      },
    })

  it.each([
    ['on the object', onTheObject],
    ['through a proxy', throughAProxy],
  ])('is asked through the execute that wraps its own (%s)', async (_, wrap) => {
    const model = scriptedModel((_call, index) =>
      index % 2 === 0
        ? reply({ calls: [{ id: 'w', name: 'get_weather', input: '{"city":"Oslo"}' }] })
        : reply({ text: 'done' }),
    )
    const seen: string[] = []
    const toolkit = wrap(await createToolkit({ tools: [weatherTool] }), seen)
    const result = await createClient({ model }).run('Oslo?', { toolkit })
    expect(seen).toStrictEqual(['wrapped get_weather w'])
    expect(result.toolCalls.map((call) => call.isError)).toStrictEqual([false])
  })
})

describe('ask: conversations remembered by id', () => {
  it('continues each conversation from the store and keeps conversations apart', async () => {
    const model = scriptedModel((call) => reply({ text: `heard: ${userTexts(call.prompt).join(' | ')}` }))
    const client = createClient({ model })
    expect((await client.ask('I am Ada.', { id: 'ada' })).text).toBe('heard: I am Ada.')
    expect((await client.ask('I am Bob.', { id: 'bob' })).text).toBe('heard: I am Bob.')
    expect((await client.ask('Who am I?', { id: 'ada' })).text).toBe('heard: I am Ada. | Who am I?')
    const stored = await client.store.load('ada')
    expect(stored?.messages.map((message) => message.role)).toStrictEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ])
    expect(stored?.version).toBe(2)
    expect(await client.store.load('nobody')).toBe(undefined)
  })

  it('serializes concurrent asks on one id, so no turn is lost', async () => {
    const model = scriptedModel((call) => reply({ text: `${userTexts(call.prompt).length}` }))
    const client = createClient({ model })
    const answers = await Promise.all([
      client.ask('one', { id: 'c' }),
      client.ask('two', { id: 'c' }),
      client.ask('three', { id: 'c' }),
    ])
    expect(answers.map((answer) => answer.text)).toStrictEqual(['1', '2', '3'])
    expect((await client.store.load('c'))?.messages.length).toBe(6)
  })

  it('uses the store it is given, and runs tools within an ask', async () => {
    const store = new InMemoryConversationStore<ModelMessage>()
    await store.save(
      'seeded',
      {
        messages: [
          { role: 'user', content: 'earlier' },
          { role: 'assistant', content: 'noted' },
        ],
      },
      0,
    )
    const model = scriptedModel((call, index) =>
      index === 0
        ? reply({ calls: [{ id: 'a', name: 'add', input: '{"a":1,"b":2}' }] })
        : reply({ text: userTexts(call.prompt).join(',') }),
    )
    const toolkit = await createToolkit({ tools: [addTool] })
    const client = createClient({ model, store })
    expect(client.store).toBe(store)
    const result = await client.ask('now', { id: 'seeded', toolkit })
    expect(result.text).toBe('earlier,now')
    expect(result.toolCalls.map((call) => call.output)).toStrictEqual(['{"sum":3}'])
    expect((await store.load('seeded'))?.messages.map((message) => message.role)).toStrictEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'tool',
      'assistant',
    ])
  })

  it('needs an id', async () => {
    const client = createClient({ model: scriptedModel(() => reply({ text: 'x' })) })
    // @ts-expect-error: the id is required
    await expect(client.ask('hi', {})).rejects.toThrow('ask needs a conversation id')
  })
})
