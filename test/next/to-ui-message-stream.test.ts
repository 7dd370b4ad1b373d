import type { UIMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import type { RunEvent, RunResult } from '../../src/contracts/run-types.js'
import { toUIMessageStreamResponse } from '../../src/ui/to-ui-message-stream-response.js'
import { chatThrough, sseChunks, userMessage } from './ui-stream.js'

type Event = RunEvent<unknown>

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 }

function finish(finishReason = 'stop'): Event {
  const result: RunResult<unknown> = {
    text: 'done',
    messages: [],
    toolCalls: [],
    turns: 2,
    usage,
    finishReason,
    status: 'done',
  }
  return { type: 'finish', result }
}

/** A run with text, a tool that works, a tool that fails, and a final answer over two steps. */
const twoStepRun: Event[] = [
  { type: 'text-delta', text: 'Let me ' },
  { type: 'text-delta', text: 'check.' },
  { type: 'tool-call', toolCallId: 'call-1', toolName: 'add', input: { a: 2, b: 3 } },
  { type: 'tool-call', toolCallId: 'call-2', toolName: 'lookup_order', input: { id: 'A7' } },
  { type: 'tool-result', toolCallId: 'call-1', toolName: 'add', output: '5', isError: false },
  {
    type: 'tool-result',
    toolCallId: 'call-2',
    toolName: 'lookup_order',
    output: 'Order service unavailable',
    isError: true,
  },
  { type: 'step-end', turn: 1, usage },
  { type: 'text-delta', text: 'The sum is 5.' },
  { type: 'step-end', turn: 2, usage },
  finish(),
]

async function* replay(events: Event[], options: { thenThrow?: Error; onEnd?: () => void } = {}) {
  try {
    for (const event of events) {
      await Promise.resolve()
      yield event
    }
    if (options.thenThrow) throw options.thenThrow
  } finally {
    options.onEnd?.()
  }
}

/** The assistant message the AI SDK builds, as JSON (absent and undefined fields are the same on the wire). */
function asJson(message: UIMessage | undefined): unknown {
  return JSON.parse(JSON.stringify(message))
}

describe('toUIMessageStreamResponse', () => {
  it('writes the SSE body with the headers createUIMessageStreamResponse sets', async () => {
    const response = toUIMessageStreamResponse(replay(twoStepRun))
    expect(response.status).toBe(200)
    expect(Object.fromEntries(response.headers)).toStrictEqual({
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'content-type': 'text/event-stream',
      'x-accel-buffering': 'no',
      'x-vercel-ai-ui-message-stream': 'v1',
    })
    expect(await sseChunks(response)).toMatchInlineSnapshot(`
      [
        {
          "type": "start",
        },
        {
          "type": "start-step",
        },
        {
          "id": "text-1",
          "type": "text-start",
        },
        {
          "delta": "Let me ",
          "id": "text-1",
          "type": "text-delta",
        },
        {
          "delta": "check.",
          "id": "text-1",
          "type": "text-delta",
        },
        {
          "id": "text-1",
          "type": "text-end",
        },
        {
          "dynamic": true,
          "toolCallId": "call-1",
          "toolName": "add",
          "type": "tool-input-start",
        },
        {
          "dynamic": true,
          "input": {
            "a": 2,
            "b": 3,
          },
          "toolCallId": "call-1",
          "toolName": "add",
          "type": "tool-input-available",
        },
        {
          "dynamic": true,
          "toolCallId": "call-2",
          "toolName": "lookup_order",
          "type": "tool-input-start",
        },
        {
          "dynamic": true,
          "input": {
            "id": "A7",
          },
          "toolCallId": "call-2",
          "toolName": "lookup_order",
          "type": "tool-input-available",
        },
        {
          "dynamic": true,
          "output": "5",
          "toolCallId": "call-1",
          "type": "tool-output-available",
        },
        {
          "dynamic": true,
          "errorText": "Order service unavailable",
          "toolCallId": "call-2",
          "type": "tool-output-error",
        },
        {
          "type": "finish-step",
        },
        {
          "type": "start-step",
        },
        {
          "id": "text-2",
          "type": "text-start",
        },
        {
          "delta": "The sum is 5.",
          "id": "text-2",
          "type": "text-delta",
        },
        {
          "id": "text-2",
          "type": "text-end",
        },
        {
          "type": "finish-step",
        },
        {
          "finishReason": "stop",
          "type": "finish",
        },
      ]
    `)
  })

  it('builds the assistant message useChat shows, with tool parts in output-available and output-error', async () => {
    const { message, errors } = await chatThrough(
      async () => toUIMessageStreamResponse(replay(twoStepRun)),
      [userMessage('u1', 'add 2 and 3, and look up order A7')],
    )
    expect(errors).toStrictEqual([])
    expect(asJson(message)).toMatchObject({ role: 'assistant' })
    const { parts } = asJson(message) as UIMessage
    expect(parts).toStrictEqual([
      { type: 'step-start' },
      { type: 'text', text: 'Let me check.', state: 'done' },
      {
        type: 'dynamic-tool',
        toolName: 'add',
        toolCallId: 'call-1',
        state: 'output-available',
        input: { a: 2, b: 3 },
        output: '5',
      },
      {
        type: 'dynamic-tool',
        toolName: 'lookup_order',
        toolCallId: 'call-2',
        state: 'output-error',
        input: { id: 'A7' },
        errorText: 'Order service unavailable',
      },
      { type: 'step-start' },
      { type: 'text', text: 'The sum is 5.', state: 'done' },
    ])
  })

  it('turns an error thrown mid-run into an error chunk, closes the open parts and ends with [DONE]', async () => {
    const events: Event[] = [{ type: 'text-delta', text: 'Working' }]
    const response = toUIMessageStreamResponse(
      replay(events, { thenThrow: new Error('model exploded: 500 Internal Server Error') }),
    )
    expect(await sseChunks(response)).toStrictEqual([
      { type: 'start' },
      { type: 'start-step' },
      { type: 'text-start', id: 'text-1' },
      { type: 'text-delta', id: 'text-1', delta: 'Working' },
      { type: 'text-end', id: 'text-1' },
      { type: 'finish-step' },
      { type: 'error', errorText: 'model exploded: 500 Internal Server Error' },
    ])

    const exchange = await chatThrough(
      async () => toUIMessageStreamResponse(replay(events, { thenThrow: new Error('model exploded') })),
      [userMessage('u1', 'hi')],
    )
    expect(exchange.errors).toStrictEqual(['model exploded'])
    expect((asJson(exchange.message) as UIMessage).parts).toStrictEqual([
      { type: 'step-start' },
      { type: 'text', text: 'Working', state: 'done' },
    ])
  })

  it('lets onError choose the text the browser sees, and survives an onError that throws', async () => {
    const masked = toUIMessageStreamResponse(replay([], { thenThrow: new Error('secret detail') }), {
      onError: () => 'Something went wrong.',
    })
    expect((await sseChunks(masked)).at(-1)).toStrictEqual({
      type: 'error',
      errorText: 'Something went wrong.',
    })

    const broken = toUIMessageStreamResponse(replay([], { thenThrow: new Error('the real error') }), {
      onError: () => {
        throw new Error('onError is broken')
      },
    })
    expect((await sseChunks(broken)).at(-1)).toStrictEqual({ type: 'error', errorText: 'the real error' })
  })

  it('sends a finish reason neither ai 6 nor 7 knows as "other", and keeps the caller status and headers', async () => {
    const response = toUIMessageStreamResponse(replay([finish('max-turns')]), {
      status: 201,
      headers: { 'x-request-id': 'r1', 'cache-control': 'no-store' },
    })
    expect(response.status).toBe(201)
    expect(response.headers.get('x-request-id')).toBe('r1')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1')
    expect(await sseChunks(response)).toStrictEqual([
      { type: 'start' },
      { type: 'finish', finishReason: 'other' },
    ])
  })

  it('ignores event types it does not know and empty text deltas', async () => {
    const unknown = { type: 'reasoning-delta', text: 'hmm' } as unknown as Event
    const response = toUIMessageStreamResponse(replay([unknown, { type: 'text-delta', text: '' }, finish()]))
    expect(await sseChunks(response)).toStrictEqual([
      { type: 'start' },
      { type: 'finish', finishReason: 'stop' },
    ])
  })

  it('stops the run when the reader cancels (the browser went away)', async () => {
    let ended = false
    let pulled = 0
    async function* endless(): AsyncGenerator<Event> {
      try {
        for (;;) {
          pulled += 1
          await new Promise((resolve) => setTimeout(resolve, 1))
          yield { type: 'text-delta', text: 'more ' }
        }
      } finally {
        ended = true
      }
    }
    const response = toUIMessageStreamResponse(endless())
    const reader = response.body!.getReader()
    await reader.read()
    await reader.read()
    await reader.cancel()
    await expect.poll(() => ended).toBe(true)
    const pulledAtCancel = pulled
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(pulled).toBe(pulledAtCancel)
  })

  it('stops the run and ends the body when the signal aborts', async () => {
    let ended = false
    const controller = new AbortController()
    async function* slow(): AsyncGenerator<Event> {
      try {
        yield { type: 'text-delta', text: 'first' }
        await new Promise((resolve) => setTimeout(resolve, 20))
        yield { type: 'text-delta', text: 'second' }
        await new Promise((resolve) => setTimeout(resolve, 20))
        yield { type: 'text-delta', text: 'third' }
      } finally {
        ended = true
      }
    }
    const response = toUIMessageStreamResponse(slow(), { signal: controller.signal })
    setTimeout(() => controller.abort(), 5)
    const text = await response.text()
    expect(text).toContain('"delta":"first"')
    expect(text).not.toContain('third')
    expect(text).not.toContain('"type":"error"')
    await expect.poll(() => ended).toBe(true)
  })

  it('puts messageMetadata on the finish chunk, where readUIMessageStream keeps it on the message', async () => {
    const handler = async () =>
      toUIMessageStreamResponse(replay(twoStepRun), {
        messageMetadata: async (result) => ({ turns: result.turns, answer: 'signed' }),
      })
    const exchange = await chatThrough(handler, [userMessage('u1', 'hi')])
    expect(exchange.errors).toStrictEqual([])
    expect(exchange.message?.metadata).toStrictEqual({ turns: 2, answer: 'signed' })
    expect(exchange.chunks.at(-1)).toStrictEqual({
      type: 'finish',
      finishReason: 'stop',
      messageMetadata: { turns: 2, answer: 'signed' },
    })
  })

  it('ends with an error chunk, not finish, when messageMetadata throws', async () => {
    const response = toUIMessageStreamResponse(replay(twoStepRun), {
      messageMetadata: () => {
        throw new Error('the store is down')
      },
    })
    const chunks = await sseChunks(response)
    expect(chunks.slice(-2)).toStrictEqual([
      { type: 'finish-step' },
      { type: 'error', errorText: 'the store is down' },
    ])
    expect(chunks.some((chunk) => (chunk as { type: string }).type === 'finish')).toBe(false)
  })
})
