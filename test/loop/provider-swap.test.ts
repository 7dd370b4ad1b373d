import type { ModelMessage } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import type { RunEvent, RunResult } from '../../src/contracts/run-types.js'
import type { Tool } from '../../src/tool/types.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { type ScriptedServer, type ScriptStep, startScriptedServer } from '../support/scripted-server.js'
import { addTool, aiMajor, PROVIDERS, type ScriptedProvider, weatherTool } from './support.js'

const servers: ScriptedServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

const SCRIPT: ScriptStep[] = [
  {
    type: 'reply',
    text: 'Checking.',
    toolCalls: [
      { id: 'call_weather', name: 'get_weather', arguments: '{"city":"Chennai"}' },
      { id: 'call_add', name: 'add', arguments: '{"a":2,"b":3}' },
    ],
    usage: { input: 20, output: 7 },
  },
  { type: 'reply', text: 'Chennai is sunny; 2 + 3 = 5.', usage: { input: 50, output: 11 } },
]

async function scenario(options: { provider: ScriptedProvider; mode: 'run' | 'stream' }): Promise<{
  result: RunResult<ModelMessage>
  events: Array<RunEvent<ModelMessage>>
  server: ScriptedServer
}> {
  const server = await startScriptedServer({ protocol: options.provider.protocol, script: SCRIPT })
  servers.push(server)
  const toolkit = await createToolkit({ tools: [weatherTool, addTool] })
  const client = createClient({ model: options.provider.model(server.url), system: 'Be brief.' })
  const prompt = 'Weather in Chennai, and what is 2 + 3?'
  if (options.mode === 'run') return { result: await client.run(prompt, { toolkit }), events: [], server }
  const stream = client.stream(prompt, { toolkit })
  const events: Array<RunEvent<ModelMessage>> = []
  for await (const event of stream) events.push(event)
  return { result: await stream.result, events, server }
}

describe.each(PROVIDERS)('provider swap: $name', (provider) => {
  const ids = provider.sendsCallIds ? ['call_weather', 'call_add'] : ['generated-0', 'generated-1']

  it.each(['run', 'stream'] as const)('%s: calls both tools, answers both, then finishes', async (mode) => {
    const { result, events, server } = await scenario({ provider, mode })

    expect(result.text).toBe('Chennai is sunny; 2 + 3 = 5.')
    expect(result.status).toBe('done')
    expect(result.finishReason).toBe('stop')
    expect(result.turns).toBe(2)
    expect(result.usage).toStrictEqual({ inputTokens: 70, outputTokens: 18, totalTokens: 88 })
    expect(result.toolCalls).toStrictEqual([
      {
        id: ids[0],
        name: 'get_weather',
        args: { city: 'Chennai' },
        output: 'Sunny and 31°C in Chennai.',
        isError: false,
      },
      { id: ids[1], name: 'add', args: { a: 2, b: 3 }, output: '{"sum":5}', isError: false },
    ])
    expect(result.messages).toStrictEqual([
      { role: 'user', content: 'Weather in Chennai, and what is 2 + 3?' },
      {
        role: 'assistant',
        content: [
          expect.objectContaining({ type: 'text', text: 'Checking.' }),
          expect.objectContaining({
            type: 'tool-call',
            toolCallId: ids[0],
            toolName: 'get_weather',
            input: { city: 'Chennai' },
          }),
          expect.objectContaining({
            type: 'tool-call',
            toolCallId: ids[1],
            toolName: 'add',
            input: { a: 2, b: 3 },
          }),
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: ids[0],
            toolName: 'get_weather',
            output: { type: 'text', value: 'Sunny and 31°C in Chennai.' },
          },
          {
            type: 'tool-result',
            toolCallId: ids[1],
            toolName: 'add',
            output: { type: 'text', value: '{"sum":5}' },
          },
        ],
      },
      {
        role: 'assistant',
        content: [expect.objectContaining({ type: 'text', text: 'Chennai is sunny; 2 + 3 = 5.' })],
      },
    ])
    expect(server.requests).toHaveLength(2)

    if (mode === 'stream') {
      const text = events
        .filter((event) => event.type === 'text-delta')
        .map((event) => event.text)
        .join('')
      expect(text).toBe('Checking.Chennai is sunny; 2 + 3 = 5.')
      expect(events.filter((event) => event.type !== 'text-delta').map((event) => event.type)).toStrictEqual([
        'tool-call',
        'tool-call',
        'tool-result',
        'tool-result',
        'step-end',
        'step-end',
        'finish',
      ])
      expect(events.at(-1)).toStrictEqual({ type: 'finish', result })
    }
  })

  it('continues from a result passed back as history', async () => {
    const server = await startScriptedServer({
      protocol: provider.protocol,
      script: [...SCRIPT, { type: 'reply', text: 'You asked about Chennai.' }],
    })
    servers.push(server)
    const toolkit = await createToolkit({ tools: [weatherTool, addTool] })
    const client = createClient({ model: provider.model(server.url) })
    const first = await client.run('Weather in Chennai, and what is 2 + 3?', { toolkit })
    const second = await client.run('Which city did I ask about?', { toolkit, history: first.messages })
    expect(second.text).toBe('You asked about Chennai.')
    expect(second.messages.slice(0, first.messages.length)).toStrictEqual(first.messages)
    expect(second.messages).toHaveLength(first.messages.length + 2)
  })
})

/** The part of each request body that carries tool declarations, tool calls and tool results. */
function wire(provider: ScriptedProvider, body: Record<string, unknown>): unknown {
  switch (provider.name) {
    case 'openai-chat':
      return { messages: body.messages, tools: body.tools, tool_choice: body.tool_choice }
    case 'openai-responses':
      return { input: body.input, tools: body.tools, tool_choice: body.tool_choice }
    case 'anthropic': {
      // The streaming call also asks for eager tool-input streaming, a transport detail of @ai-sdk/anthropic.
      const tools = (body.tools as Array<Record<string, unknown>> | undefined)?.map(
        ({ eager_input_streaming: _eager, ...tool }) => tool,
      )
      return { system: body.system, messages: body.messages, tools, tool_choice: body.tool_choice }
    }
    case 'google':
      return {
        systemInstruction: body.systemInstruction,
        contents: body.contents,
        tools: body.tools,
        toolConfig: body.toolConfig,
      }
  }
}

function providerNamed(name: ScriptedProvider['name']): ScriptedProvider {
  const found = PROVIDERS.find((each) => each.name === name)
  if (found === undefined) throw new Error(`no scripted provider ${name}`)
  return found
}

/**
 * The wire part of the second request (after the tools ran) of the scenario on `provider`: the same
 * whether the run streams or not, which this checks.
 */
async function secondRequest(provider: ScriptedProvider): Promise<unknown> {
  const { server } = await scenario({ provider, mode: 'run' })
  const streamed = await scenario({ provider, mode: 'stream' })
  const sent = wire(provider, server.requests[1]?.body)
  expect(wire(provider, streamed.server.requests[1]?.body)).toStrictEqual(sent)
  return sent
}

/** What every declaration of a tool says about it: its name and description. */
function declared(tool: Tool): { name: string; description: string } {
  return { name: tool.name, description: tool.description }
}

describe('wire formats (the second request: tool declarations, the assistant turn and every tool result)', () => {
  const major = aiMajor

  it('OpenAI Chat Completions', async () => {
    const provider = providerNamed('openai-chat')
    const { tools, ...rest } = (await secondRequest(provider)) as { tools: unknown }
    expect(tools).toStrictEqual(
      [weatherTool, addTool].map((tool) => ({
        type: 'function',
        function: { ...declared(tool), parameters: tool.inputSchema },
      })),
    )
    expect(rest).toMatchInlineSnapshot(`
      {
        "messages": [
          {
            "content": "Be brief.",
            "role": "system",
          },
          {
            "content": "Weather in Chennai, and what is 2 + 3?",
            "role": "user",
          },
          {
            "content": "Checking.",
            "role": "assistant",
            "tool_calls": [
              {
                "function": {
                  "arguments": "{"city":"Chennai"}",
                  "name": "get_weather",
                },
                "id": "call_weather",
                "type": "function",
              },
              {
                "function": {
                  "arguments": "{"a":2,"b":3}",
                  "name": "add",
                },
                "id": "call_add",
                "type": "function",
              },
            ],
          },
          {
            "content": "Sunny and 31°C in Chennai.",
            "role": "tool",
            "tool_call_id": "call_weather",
          },
          {
            "content": "{"sum":5}",
            "role": "tool",
            "tool_call_id": "call_add",
          },
        ],
        "tool_choice": "auto",
      }
    `)
  })

  it('OpenAI Responses', async () => {
    const provider = providerNamed('openai-responses')
    const { tools, ...rest } = (await secondRequest(provider)) as { tools: unknown }
    // The tool declaration shape is the provider package's own, and differs between its majors.
    expect(tools).toStrictEqual(
      [weatherTool, addTool].map((tool) => ({
        type: 'function',
        ...declared(tool),
        parameters: tool.inputSchema,
        ...(major >= 7 ? { strict: false } : {}),
      })),
    )
    expect(rest).toMatchInlineSnapshot(`
      {
        "input": [
          {
            "content": "Be brief.",
            "role": "system",
          },
          {
            "content": [
              {
                "text": "Weather in Chennai, and what is 2 + 3?",
                "type": "input_text",
              },
            ],
            "role": "user",
          },
          {
            "id": "msg_scripted",
            "type": "item_reference",
          },
          {
            "arguments": "{"city":"Chennai"}",
            "call_id": "call_weather",
            "name": "get_weather",
            "type": "function_call",
          },
          {
            "arguments": "{"a":2,"b":3}",
            "call_id": "call_add",
            "name": "add",
            "type": "function_call",
          },
          {
            "call_id": "call_weather",
            "output": "Sunny and 31°C in Chennai.",
            "type": "function_call_output",
          },
          {
            "call_id": "call_add",
            "output": "{"sum":5}",
            "type": "function_call_output",
          },
        ],
        "tool_choice": "auto",
      }
    `)
  })

  it('Anthropic Messages', async () => {
    const provider = providerNamed('anthropic')
    const { tools, ...rest } = (await secondRequest(provider)) as { tools: unknown }
    expect(tools).toStrictEqual(
      [weatherTool, addTool].map((tool) => ({ ...declared(tool), input_schema: tool.inputSchema })),
    )
    expect(rest).toMatchInlineSnapshot(`
      {
        "messages": [
          {
            "content": [
              {
                "text": "Weather in Chennai, and what is 2 + 3?",
                "type": "text",
              },
            ],
            "role": "user",
          },
          {
            "content": [
              {
                "text": "Checking.",
                "type": "text",
              },
              {
                "id": "call_weather",
                "input": {
                  "city": "Chennai",
                },
                "name": "get_weather",
                "type": "tool_use",
              },
              {
                "id": "call_add",
                "input": {
                  "a": 2,
                  "b": 3,
                },
                "name": "add",
                "type": "tool_use",
              },
            ],
            "role": "assistant",
          },
          {
            "content": [
              {
                "content": "Sunny and 31°C in Chennai.",
                "tool_use_id": "call_weather",
                "type": "tool_result",
              },
              {
                "content": "{"sum":5}",
                "tool_use_id": "call_add",
                "type": "tool_result",
              },
            ],
            "role": "user",
          },
        ],
        "system": [
          {
            "text": "Be brief.",
            "type": "text",
          },
        ],
        "tool_choice": {
          "type": "auto",
        },
      }
    `)
  })

  it('Google Gemini', async () => {
    const provider = providerNamed('google')
    const { tools, ...rest } = (await secondRequest(provider)) as { tools: unknown }
    // The tool declaration shape is the provider package's own, and differs between its majors.
    expect(tools).toStrictEqual([
      {
        functionDeclarations: [weatherTool, addTool].map((tool) => {
          const { additionalProperties: _dropped, ...openApi } = tool.inputSchema
          return {
            ...declared(tool),
            ...(major >= 7 ? { parametersJsonSchema: tool.inputSchema } : { parameters: openApi }),
          }
        }),
      },
    ])
    expect(rest).toMatchInlineSnapshot(`
      {
        "contents": [
          {
            "parts": [
              {
                "text": "Weather in Chennai, and what is 2 + 3?",
              },
            ],
            "role": "user",
          },
          {
            "parts": [
              {
                "text": "Checking.",
              },
              {
                "functionCall": {
                  "args": {
                    "city": "Chennai",
                  },
                  "id": "generated-0",
                  "name": "get_weather",
                },
                "thoughtSignature": "skip_thought_signature_validator",
              },
              {
                "functionCall": {
                  "args": {
                    "a": 2,
                    "b": 3,
                  },
                  "id": "generated-1",
                  "name": "add",
                },
                "thoughtSignature": "skip_thought_signature_validator",
              },
            ],
            "role": "model",
          },
          {
            "parts": [
              {
                "functionResponse": {
                  "id": "generated-0",
                  "name": "get_weather",
                  "response": {
                    "content": "Sunny and 31°C in Chennai.",
                    "name": "get_weather",
                  },
                },
              },
              {
                "functionResponse": {
                  "id": "generated-1",
                  "name": "add",
                  "response": {
                    "content": "{"sum":5}",
                    "name": "add",
                  },
                },
              },
            ],
            "role": "user",
          },
        ],
        "systemInstruction": {
          "parts": [
            {
              "text": "Be brief.",
            },
          ],
        },
        "toolConfig": {
          "functionCallingConfig": {
            "mode": "AUTO",
          },
        },
      }
    `)
  })

  it('declares no tools at all when the toolkit has none', async () => {
    for (const provider of PROVIDERS) {
      const server = await startScriptedServer({
        protocol: provider.protocol,
        script: [{ type: 'reply', text: 'Hi.' }],
      })
      servers.push(server)
      const toolkit = await createToolkit({})
      const result = await createClient({ model: provider.model(server.url) }).run('Hello', { toolkit })
      expect(result.text).toBe('Hi.')
      const body = server.requests[0]?.body
      expect([provider.name, body.tools, body.tool_choice, body.toolConfig]).toStrictEqual([
        provider.name,
        undefined,
        undefined,
        undefined,
      ])
    }
  })
})
