// The fields callers branch on: AbortError.reason (and timeoutMs), ModelCallError.statusCode and attempts,
// over the real SDKs against scripted endpoints.
import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { AbortError, ModelCallError } from '../../src/errors.js'
import { genaiFor, type ScriptedGemini, startScriptedGemini } from '../support/scripted-gemini.js'
import { type ScriptedServer, type ScriptStep, startScriptedServer } from '../support/scripted-server.js'
import { provider } from './support.js'

const servers: Array<ScriptedServer | ScriptedGemini> = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function openai(script: ScriptStep[]): Promise<ScriptedServer> {
  const server = await startScriptedServer({ protocol: provider('openai-chat').protocol, script })
  servers.push(server)
  return server
}

const FAST = { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 5 }

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected the run to reject'),
    (error: unknown) => error,
  )
}

describe('AbortError.reason', () => {
  it("is 'aborted' for the run's signal, with the signal's reason as cause", async () => {
    const server = await openai([{ type: 'hang' }])
    const controller = new AbortController()
    const client = createClient({ model: provider('openai-chat').model(server.url) })
    const run = client.run('Hi', { signal: controller.signal })
    setTimeout(() => controller.abort(new Error('user pressed stop')), 20)
    const error = await rejection(run)
    expect(AbortError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ name: 'AbortError', reason: 'aborted', timeoutMs: undefined })
    expect((error as AbortError).cause).toEqual(new Error('user pressed stop'))
  })

  it("is 'timeout' for timeoutMs, with the limit", async () => {
    const server = await openai([{ type: 'hang' }])
    const client = createClient({ model: provider('openai-chat').model(server.url), timeoutMs: 50 })
    for (const mode of ['run', 'stream'] as const) {
      const error = await rejection(mode === 'run' ? client.run('Hi') : client.stream('Hi').result)
      expect([mode, error]).toMatchObject([mode, { reason: 'timeout', timeoutMs: 50 }])
      expect((error as Error).message).toBe('The run timed out after 50 ms.')
    }
  })

  it("is 'stream-closed' when the caller stops reading the stream", async () => {
    const server = await openai([{ type: 'reply', text: 'a long answer' }])
    const stream = createClient({ model: provider('openai-chat').model(server.url) }).stream('Hi')
    for await (const event of stream) {
      if (event.type === 'text-delta') break
    }
    const error = await rejection(stream.result)
    expect(error).toMatchObject({ reason: 'stream-closed' })
  })
})

describe('ModelCallError.statusCode and attempts', () => {
  it('carries the last status and the number of calls made, after the retries', async () => {
    const server = await openai([
      { type: 'error', status: 503 },
      { type: 'error', status: 502 },
      { type: 'error', status: 500 },
    ])
    const client = createClient({ model: provider('openai-chat').model(server.url), retries: FAST })
    const error = await rejection(client.run('Hi'))
    expect(ModelCallError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ statusCode: 500, attempts: 3 })
    expect(server.requests).toHaveLength(3)
  })

  it('a 401 is not retried: one attempt, status 401', async () => {
    const server = await openai([{ type: 'error', status: 401, message: 'bad key' }])
    const error = await rejection(
      createClient({ model: provider('openai-chat').model(server.url) }).run('Hi'),
    )
    expect(error).toMatchObject({ statusCode: 401, attempts: 1 })
  })

  it('a dropped connection has no status', async () => {
    const server = await openai([{ type: 'drop' }])
    const client = createClient({ model: provider('openai-chat').model(server.url), retries: 0 })
    const error = await rejection(client.run('Hi'))
    expect(error).toMatchObject({ statusCode: undefined, attempts: 1 })
  })

  it('the genai client fills them the same way', async () => {
    const gemini = await startScriptedGemini({
      script: [
        { kind: 'error', status: 429 },
        { kind: 'error', status: 429 },
      ],
    })
    servers.push(gemini)
    const genai = genaiFor(gemini.baseUrl)
    const client = createClient({ genai, model: 'gemini-2.5-flash', retries: { ...FAST, maxRetries: 1 } })
    const error = await rejection(client.run('Hi'))
    expect(error).toMatchObject({ statusCode: 429, attempts: 2 })
  })
})
