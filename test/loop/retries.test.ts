import { APICallError } from '@ai-sdk/provider'
import { MockLanguageModelV3 } from 'ai/test'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { AbortError, ModelCallError } from '../../src/errors.js'
import { retryAfterFromHeaders, retryDelay } from '../../src/loop/retry.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { type ScriptedServer, type ScriptStep, startScriptedServer } from '../support/scripted-server.js'
import { PROVIDERS, provider, weatherTool } from './support.js'

const servers: ScriptedServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function serve(
  name: (typeof PROVIDERS)[number]['name'],
  script: ScriptStep[],
): Promise<ScriptedServer> {
  const server = await startScriptedServer({ protocol: provider(name).protocol, script })
  servers.push(server)
  return server
}

const FAST = { maxRetries: 2, initialDelayMs: 20 }

describe('retries of transient model errors', () => {
  it('waits out a 429 with Retry-After: 1, then succeeds', async () => {
    const server = await serve('openai-chat', [
      { type: 'error', status: 429, headers: { 'retry-after': '1' } },
      { type: 'reply', text: 'ok' },
    ])
    const started = Date.now()
    const result = await createClient({ model: provider('openai-chat').model(server.url) }).run('Hi')
    const elapsed = Date.now() - started
    expect(result.text).toBe('ok')
    expect(server.requests).toHaveLength(2)
    expect(elapsed).toBeGreaterThanOrEqual(990)
    expect(elapsed).toBeLessThan(2_500)
  })

  it.each(PROVIDERS.map((each) => each.name))('%s: retries a 503, in run and in stream', async (name) => {
    for (const mode of ['run', 'stream'] as const) {
      const server = await serve(name, [
        { type: 'error', status: 503 },
        { type: 'reply', text: 'recovered' },
      ])
      const client = createClient({ model: provider(name).model(server.url), retries: FAST })
      const result = mode === 'run' ? await client.run('Hi') : await client.stream('Hi').result
      expect([mode, result.text, server.requests.length]).toStrictEqual([mode, 'recovered', 2])
    }
  })

  it('retries a dropped connection (a network error)', async () => {
    const server = await serve('anthropic', [{ type: 'drop' }, { type: 'reply', text: 'back' }])
    const result = await createClient({ model: provider('anthropic').model(server.url), retries: FAST }).run(
      'Hi',
    )
    expect(result.text).toBe('back')
    expect(server.requests).toHaveLength(2)
  })

  it('gives up after the configured retries with a ModelCallError carrying the provider error', async () => {
    const server = await serve('openai-chat', [
      { type: 'error', status: 503 },
      { type: 'error', status: 503 },
      { type: 'error', status: 503 },
      { type: 'reply', text: 'too late' },
    ])
    const error = await createClient({ model: provider('openai-chat').model(server.url), retries: FAST })
      .run('Hi')
      .catch((caught: unknown) => caught)
    expect(ModelCallError.isInstance(error)).toBe(true)
    expect((error as ModelCallError).message).toMatch(/^The model call failed after 3 attempts: /)
    expect(APICallError.isInstance((error as ModelCallError).cause)).toBe(true)
    expect(((error as ModelCallError).cause as APICallError).statusCode).toBe(503)
    expect(server.requests).toHaveLength(3)
  })

  it.each([400, 401, 404, 422])('never retries a %s', async (status) => {
    const server = await serve('openai-chat', [
      { type: 'error', status, message: 'bad request body' },
      { type: 'reply', text: 'no' },
    ])
    const error = await createClient({ model: provider('openai-chat').model(server.url), retries: FAST })
      .run('Hi')
      .catch((caught: unknown) => caught)
    expect(ModelCallError.isInstance(error)).toBe(true)
    expect((error as Error).message).toBe('The model call failed: bad request body')
    expect(server.requests).toHaveLength(1)
  })

  it('retries: 0 turns retrying off', async () => {
    const server = await serve('openai-chat', [
      { type: 'error', status: 503 },
      { type: 'reply', text: 'no' },
    ])
    const error = await createClient({ model: provider('openai-chat').model(server.url), retries: 0 })
      .run('Hi')
      .catch((caught: unknown) => caught)
    expect(ModelCallError.isInstance(error)).toBe(true)
    expect(server.requests).toHaveLength(1)
  })

  it('never retries an abort, even during the backoff', async () => {
    const server = await serve('openai-chat', [
      { type: 'error', status: 429, headers: { 'retry-after': '30' } },
      { type: 'reply', text: 'no' },
    ])
    const controller = new AbortController()
    // Aborted once the 429 has arrived, during the 30 s backoff (however slow the machine is).
    const watch = setInterval(() => {
      if (server.requests.length > 0) {
        clearInterval(watch)
        setTimeout(() => controller.abort(), 50)
      }
    }, 10)
    const started = Date.now()
    const error = await createClient({ model: provider('openai-chat').model(server.url) })
      .run('Hi', { signal: controller.signal })
      .catch((caught: unknown) => caught)
    clearInterval(watch)
    expect(AbortError.isInstance(error)).toBe(true)
    // Far less than the 30 s the server asked to wait: the abort ended the backoff.
    expect(Date.now() - started).toBeLessThan(15_000)
    expect(server.requests).toHaveLength(1)
  })
})

describe('streams fail over only before their first part', () => {
  const overloaded = () =>
    new APICallError({
      message: 'overloaded',
      url: 'http://x',
      requestBodyValues: {},
      statusCode: 529,
      isRetryable: true,
    })
  const streamOf = (parts: unknown[]) =>
    new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part)
        controller.close()
      },
    })
  const finish = {
    type: 'finish',
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } },
  }

  it('retries an error part that comes before any text', async () => {
    const streams = [
      streamOf([
        { type: 'stream-start', warnings: [] },
        { type: 'error', error: overloaded() },
      ]),
      streamOf([{ type: 'text-delta', id: 't', delta: 'fine' }, finish]),
    ]
    const model = new MockLanguageModelV3({
      doStream: async () => ({ stream: streams.shift() as ReadableStream }),
    })
    const result = await createClient({ model, retries: FAST }).stream('Hi').result
    expect(result.text).toBe('fine')
    expect(model.doStreamCalls).toHaveLength(2)
  })

  it('does not retry once text was emitted: the run fails with a ModelCallError', async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: streamOf([
          { type: 'text-delta', id: 't', delta: 'half an ans' },
          { type: 'error', error: overloaded() },
        ]),
      }),
    })
    const stream = createClient({ model, retries: FAST }).stream('Hi')
    const texts: string[] = []
    const error = await (async () => {
      for await (const event of stream) if (event.type === 'text-delta') texts.push(event.text)
    })().catch((caught: unknown) => caught)
    expect(texts).toStrictEqual(['half an ans'])
    expect(ModelCallError.isInstance(error)).toBe(true)
    await expect(stream.result).rejects.toThrow('The model call failed: overloaded')
    expect(model.doStreamCalls).toHaveLength(1)
  })
})

describe('retry helpers', () => {
  it.each([
    [{ 'retry-after': '1' }, 1000],
    [{ 'Retry-After': ' 3 ' }, 3000],
    [{ 'retry-after-ms': '250' }, 250],
    [{ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }, undefined],
    [{ 'retry-after': '1.5' }, undefined],
    [undefined, undefined],
  ])('retryAfterFromHeaders(%j) is %s', (headers, expected) => {
    expect(retryAfterFromHeaders(headers)).toBe(expected)
  })

  it('backs off exponentially with jitter in the upper half, capped', () => {
    const policy = { maxRetries: 5, initialDelayMs: 100, maxDelayMs: 1_000 }
    for (let attempt = 0; attempt < 3; attempt++) {
      const delay = retryDelay({ attempt, policy })
      expect(delay).toBeGreaterThanOrEqual(50 * 2 ** attempt)
      expect(delay).toBeLessThanOrEqual(100 * 2 ** attempt)
    }
    expect(retryDelay({ attempt: 10, policy })).toBe(1_000)
    expect(retryDelay({ attempt: 0, policy, retryAfterMs: 700 })).toBe(700)
    expect(retryDelay({ attempt: 0, policy, retryAfterMs: 60_000 })).toBe(1_000)
  })
})

it('a retried turn goes on to call tools and finish (google)', async () => {
  const server = await serve('google', [
    { type: 'error', status: 500 },
    { type: 'reply', toolCalls: [{ id: 'ignored', name: 'get_weather', arguments: '{"city":"Pune"}' }] },
    { type: 'reply', text: 'Pune is sunny.' },
  ])
  const toolkit = await createToolkit({ tools: [weatherTool] })
  const result = await createClient({ model: provider('google').model(server.url), retries: FAST }).run(
    'Pune?',
    { toolkit },
  )
  expect(result.text).toBe('Pune is sunny.')
  expect(result.toolCalls.map((call) => call.output)).toStrictEqual(['Sunny and 31°C in Pune.'])
})
