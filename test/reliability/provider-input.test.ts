// Nonsensical provider input is normalized: repeated call ids become unique (each call answered once),
// missing ids are unique per run, an `input` sent as an object runs, an error whose `message` getter
// throws becomes a ModelCallError, and an out-of-range Retry-After falls back to the normal backoff.
import { ApiError } from '@google/genai'
import type { ModelMessage } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { ModelCallError } from '../../src/errors.js'
import { classifyGenAIError } from '../../src/genai/classify-genai-error.js'
import { readFunctionCalls } from '../../src/genai/read-function-calls.js'
import { retryDelay } from '../../src/loop/retry.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { provider } from '../loop/support.js'
import { startScriptedServer } from '../support/scripted-server.js'
import { expectEveryCallAnswered, failOnUnhandledRejections } from './support.js'

failOnUnhandledRejections()

const USAGE = { inputTokens: { total: 1 }, outputTokens: { total: 1 } }

/** A spec-v3 model answering turn by turn from `turns` (content parts), then with text. */
function scriptedModel(turns: unknown[][]) {
  let turn = 0
  const next = () => {
    const content = turns[turn++]
    if (content === undefined) {
      return {
        content: [{ type: 'text', text: 'done' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: USAGE,
        warnings: [],
      }
    }
    return { content, finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: USAGE, warnings: [] }
  }
  return {
    specificationVersion: 'v3' as const,
    provider: 'scripted',
    modelId: 'scripted',
    supportedUrls: {},
    doGenerate: async () => next(),
    doStream: async () => {
      throw new Error('not used')
    },
  }
}

async function counterToolkit() {
  const seen: unknown[] = []
  const tool = defineTool({
    name: 'count',
    description: '',
    inputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
    execute: (args) => {
      seen.push(args)
      return `counted ${String(args.n)}`
    },
  })
  return { seen, toolkit: await createToolkit({ tools: [tool], logger: { warn() {} } }) }
}

describe('AI SDK transport: call ids and inputs', () => {
  it('five calls sharing one id get five ids, five executions and exactly one result each', async () => {
    const { seen, toolkit } = await counterToolkit()
    const calls = [1, 2, 3, 4, 5].map((n) => ({
      type: 'tool-call',
      toolCallId: 'dup',
      toolName: 'count',
      input: `{"n":${n}}`,
    }))
    const result = await createClient({ model: scriptedModel([calls]) as never }).run('go', { toolkit })
    expect(seen).toHaveLength(5)
    expect(result.toolCalls.map((call) => call.id)).toStrictEqual(['dup', 'dup_2', 'dup_3', 'dup_4', 'dup_5'])
    expect(expectEveryCallAnswered(result.messages as ModelMessage[])).toHaveLength(5)
  })

  it('calls without ids get ids unique across turns, not call_0 in every turn', async () => {
    const { toolkit } = await counterToolkit()
    const call = (n: number) => ({ type: 'tool-call', toolName: 'count', input: `{"n":${n}}` })
    const result = await createClient({ model: scriptedModel([[call(1)], [call(2)]]) as never }).run('go', {
      toolkit,
    })
    const ids = result.toolCalls.map((each) => each.id)
    expect(ids).toHaveLength(2)
    expect(new Set(ids).size).toBe(2)
    expect(ids.every((id) => id.startsWith('call_') && id !== 'call_0')).toBe(true)
    expectEveryCallAnswered(result.messages as ModelMessage[])
  })

  it('a call whose input is an object (not JSON text) runs, and the run goes on', async () => {
    const { seen, toolkit } = await counterToolkit()
    const calls = [
      { type: 'tool-call', toolCallId: 'a', toolName: 'count', input: { n: 7 } },
      { type: 'tool-call', toolCallId: 'b', toolName: 'count', input: '{"n":8}' },
    ]
    const result = await createClient({ model: scriptedModel([calls]) as never }).run('go', { toolkit })
    expect(result.text).toBe('done')
    expect(seen).toStrictEqual([{ n: 7 }, { n: 8 }])
  })

  it('an error whose message getter throws becomes a ModelCallError, not a raw throw', async () => {
    const hostile = new Error('hidden')
    Object.defineProperty(hostile, 'message', {
      get() {
        throw new TypeError('message is booby-trapped')
      },
    })
    const model = {
      ...scriptedModel([]),
      doGenerate: async () => {
        throw hostile
      },
    }
    const error = await createClient({ model: model as never })
      .run('go')
      .catch((caught: unknown) => caught)
    expect(ModelCallError.isInstance(error)).toBe(true)
    expect((error as Error).message).toBe('The model call failed: [an error whose message cannot be read]')
  })
})

describe('@google/genai: call ids', () => {
  it('repeated ids in one turn become unique; the repeats are answered by position', () => {
    const calls = readFunctionCalls({
      content: {
        role: 'model',
        parts: [
          { functionCall: { id: 'x', name: 'count', args: { n: 1 } } },
          { functionCall: { id: 'x', name: 'count', args: { n: 2 } } },
          { functionCall: { name: 'count', args: [1] as never } },
        ],
      },
    })
    expect(calls.map((call) => [call.id, call.idGenerated ?? false, call.input])).toStrictEqual([
      ['x', false, { n: 1 }],
      ['x_2', true, { n: 2 }],
      [expect.stringMatching(/^gemini-call-\d+$/), true, {}],
    ])
  })
})

describe('Retry-After out of range falls back to the normal backoff', () => {
  const servers: Array<{ close(): Promise<void> }> = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()))
  })

  it('Retry-After: 99999999999999999999 does not hold the run', async () => {
    const server = await startScriptedServer({
      protocol: provider('openai-chat').protocol,
      script: [
        { type: 'error', status: 429, headers: { 'retry-after': '99999999999999999999' } },
        { type: 'reply', text: 'ok' },
      ],
    })
    servers.push(server)
    const started = Date.now()
    const result = await createClient({
      model: provider('openai-chat').model(server.url),
      retries: { maxRetries: 2, initialDelayMs: 20 },
    }).run('Hi')
    expect(result.text).toBe('ok')
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('retryDelay: a garbage or astronomically long Retry-After gets the backoff; a long sane one is capped', () => {
    const policy = { maxRetries: 2, initialDelayMs: 100, maxDelayMs: 1_000 }
    for (const retryAfterMs of [1e23, Number.POSITIVE_INFINITY, Number.NaN, -5, 90_000_000]) {
      const delay = retryDelay({ attempt: 0, policy, retryAfterMs })
      expect(delay).toBeGreaterThanOrEqual(50)
      expect(delay).toBeLessThanOrEqual(100)
    }
    expect(retryDelay({ attempt: 0, policy, retryAfterMs: 120_000 })).toBe(1_000)
  })

  it('the genai classifier ignores a Retry-After or retryDelay with absurdly many digits', () => {
    const huge = new ApiError({
      status: 429,
      message: '{"error":{"details":[{"retryDelay":"99999999999999999999s"}]}}',
    })
    expect(classifyGenAIError(huge)).toStrictEqual({ retryable: true, statusCode: 429 })
    const header = Object.assign(new ApiError({ status: 503, message: 'busy' }), {
      headers: new Headers({ 'retry-after': '99999999999999999999' }),
    })
    expect(classifyGenAIError(header)).toStrictEqual({ retryable: true, statusCode: 503 })
  })
})
