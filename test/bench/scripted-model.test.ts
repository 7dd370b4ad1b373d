// The bench's scripted endpoints must answer the scenario exactly and catch a run that lost a tool result:
// every bench figure rests on that check.

import { describe, expect, it } from 'vitest'
import { type GeminiPart, geminiReply, openAIReply } from '../../bench/src/endpoint/scripted-model.js'
import { EXPECTED_ANSWER } from '../../bench/src/scenario.js'

const declared = (...names: string[]) => names.map((name) => ({ type: 'function', function: { name } }))
const question = { role: 'user', content: 'What is the weather and the local time in Paris?' }

function answerText(reply: ReturnType<typeof openAIReply>): unknown {
  if (reply.kind !== 'json') throw new Error('expected JSON')
  return (reply.body as { choices: Array<{ message: { content: unknown } }> }).choices[0]!.message.content
}

describe('scripted OpenAI endpoint', () => {
  it('answers a fresh question with two parallel calls to the declared tools, MCP prefixes included', () => {
    const reply = openAIReply(
      { model: 'm', messages: [question], tools: declared('bench_get_weather', 'bench_get_time') },
      1,
    )
    expect(reply).toMatchInlineSnapshot(`
      {
        "body": {
          "choices": [
            {
              "finish_reason": "tool_calls",
              "index": 0,
              "logprobs": null,
              "message": {
                "content": null,
                "role": "assistant",
                "tool_calls": [
                  {
                    "function": {
                      "arguments": "{"city":"Paris"}",
                      "name": "bench_get_weather",
                    },
                    "id": "call_weather",
                    "type": "function",
                  },
                  {
                    "function": {
                      "arguments": "{"city":"Paris"}",
                      "name": "bench_get_time",
                    },
                    "id": "call_time",
                    "type": "function",
                  },
                ],
              },
            },
          ],
          "created": 1700000000,
          "id": "chatcmpl-bench-1",
          "model": "m",
          "object": "chat.completion",
          "usage": {
            "completion_tokens": 20,
            "prompt_tokens": 60,
            "total_tokens": 80,
          },
        },
        "failed": false,
        "kind": "json",
      }
    `)
  })

  const toolTurn = { role: 'assistant', content: null }
  const weather = { role: 'tool', tool_call_id: 'call_weather', content: '{"condition":"sunny"}' }
  const time = { role: 'tool', tool_call_id: 'call_time', content: [{ type: 'text', text: '12:00' }] }

  it('gives the expected answer once both results came back', () => {
    const reply = openAIReply(
      { messages: [question, toolTurn, weather, time], tools: declared('get_weather', 'get_time') },
      2,
    )
    expect(reply.failed).toBe(false)
    expect(answerText(reply)).toBe(EXPECTED_ANSWER)
  })

  it.each([
    ['a missing result', [weather]],
    ['a duplicated result', [weather, weather]],
    ['a result without the tool output', [weather, { ...time, content: 'nothing' }]],
  ])('fails the run on %s', (_label, results) => {
    const reply = openAIReply(
      { messages: [question, toolTurn, ...results], tools: declared('get_weather', 'get_time') },
      3,
    )
    expect(reply.failed).toBe(true)
    expect(answerText(reply)).toMatch(/^BENCH-ERROR/)
  })

  it('fails the run when the tools were not declared', () => {
    const reply = openAIReply({ messages: [question], tools: declared('get_weather') }, 4)
    expect(reply.failed).toBe(true)
    expect(answerText(reply)).toBe('BENCH-ERROR: tools not declared, got [get_weather]')
  })

  it('streams the calls as indexed deltas, the usage chunk when asked, then [DONE]', () => {
    const reply = openAIReply(
      {
        messages: [question],
        tools: declared('get_weather', 'get_time'),
        stream: true,
        stream_options: { include_usage: true },
      },
      5,
    )
    if (reply.kind !== 'sse') throw new Error('expected SSE')
    expect(reply.events.at(-1)).toBe('[DONE]')
    const chunks = reply.events.slice(0, -1).map((event) => JSON.parse(event) as Record<string, unknown>)
    expect(chunks.map((chunk) => chunk.object)).toStrictEqual(Array(4).fill('chat.completion.chunk'))
    expect(JSON.stringify(chunks[1])).toContain('"index":1,"id":"call_time"')
    expect(chunks[3]!.usage).toStrictEqual({ prompt_tokens: 60, completion_tokens: 20, total_tokens: 80 })
  })
})

describe('scripted Gemini endpoint', () => {
  const tools = [{ functionDeclarations: [{ name: 'get_weather' }, { name: 'get_time' }] }]
  const user = { role: 'user', parts: [{ text: 'What is the weather and the local time in Paris?' }] }

  function modelTurn(): { role: string; parts: GeminiPart[] } {
    const reply = geminiReply({ contents: [user], tools }, { model: 'm', streaming: false, sequence: 1 })
    if (reply.kind !== 'json') throw new Error('expected JSON')
    return (reply.body as { candidates: Array<{ content: { role: string; parts: GeminiPart[] } }> })
      .candidates[0]!.content
  }

  const responses = {
    role: 'user',
    parts: [
      { functionResponse: { name: 'get_weather', response: { output: 'sunny' } } },
      { functionResponse: { name: 'get_time', response: { output: '12:00' } } },
    ],
  }

  it('calls both functions, the first part signed', () => {
    expect(modelTurn()).toStrictEqual({
      role: 'model',
      parts: [
        {
          functionCall: { name: 'get_weather', args: { city: 'Paris' } },
          thoughtSignature: 'YmVuY2gtc2lnbmF0dXJl',
        },
        { functionCall: { name: 'get_time', args: { city: 'Paris' } } },
      ],
    })
  })

  it('answers when the model turn came back verbatim with both responses', () => {
    const reply = geminiReply(
      { contents: [user, modelTurn(), responses], tools },
      { model: 'm', streaming: true, sequence: 2 },
    )
    expect(reply.failed).toBe(false)
    if (reply.kind !== 'sse') throw new Error('expected SSE')
    expect(reply.events[0]).toContain(JSON.stringify(EXPECTED_ANSWER))
  })

  it('fails the run when the thought signature was dropped', () => {
    const unsigned = {
      role: 'model',
      parts: modelTurn().parts.map((part) => ({ ...part, thoughtSignature: undefined })),
    }
    const reply = geminiReply(
      { contents: [user, JSON.parse(JSON.stringify(unsigned)), responses], tools },
      { model: 'm', streaming: false, sequence: 3 },
    )
    expect(reply.failed).toBe(true)
  })
})
