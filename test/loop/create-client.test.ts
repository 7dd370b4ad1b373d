import { MockLanguageModelV3 } from 'ai/test'
import { describe, expect, it } from 'vitest'
import type { AISDKClientOptions } from '../../src/client/client-options.js'
import { createClient } from '../../src/client/create-client.js'
import { ConfigError } from '../../src/errors.js'

const model = new MockLanguageModelV3()

describe('createClient checks its options at once, saying what to change', () => {
  it.each([
    [undefined, 'createClient needs an options object'],
    [{}, '`model` is missing: pass an AI SDK model'],
    [{ model: '' }, '`model` is an empty string'],
    [{ model: { doGenerate: 1 } }, '`model` must be an AI SDK LanguageModel'],
    [{ model, maxTurns: 0 }, '`maxTurns` must be a whole number of at least 1; got 0.'],
    [{ model, maxTurns: 2.5 }, '`maxTurns` must be a whole number of at least 1; got 2.5.'],
    [{ model, retries: -1 }, '`retries` must be a whole number of 0 or more; got -1.'],
    [{ model, retries: { initialDelayMs: -5 } }, '`retries.initialDelayMs` must be a number of milliseconds'],
    [{ model, timeoutMs: 0 }, '`timeoutMs` must be a positive number of milliseconds; got 0.'],
    [{ model, toolConcurrency: 0 }, '`toolConcurrency` must be a whole number of at least 1'],
    [{ model, maxTaskWaitMs: 0 }, '`maxTaskWaitMs` must be a positive number of milliseconds; got 0.'],
    [{ model, maxTaskWaitMs: '5000' }, '`maxTaskWaitMs` must be a positive number of milliseconds'],
    [{ model, system: 42 }, '`system` must be a string'],
    [{ model, hooks: { beforeTool: 'yes' } }, '`hooks.beforeTool` must be a function.'],
    [
      { model, store: new Map() },
      '`store` must have load(id), save(id, record, expectedVersion) and delete(id)',
    ],
    [{ genai: {}, model: 'gemini-2.5-flash' }, '`genai` must be a GoogleGenAI instance'],
    [
      { genai: { models: { generateContent() {}, generateContentStream() {} } }, model: '' },
      'With `genai`, `model` must be a Gemini model id string',
    ],
  ])('%j', (options, message) => {
    const create = () => createClient(options as unknown as AISDKClientOptions)
    expect(create).toThrow(ConfigError)
    expect(create).toThrow(message)
  })

  it('accepts every option in range', () => {
    const client = createClient({
      model,
      system: 's',
      maxTurns: 1,
      retries: { maxRetries: 0, initialDelayMs: 0, maxDelayMs: 0 },
      timeoutMs: 1,
      toolConcurrency: Number.POSITIVE_INFINITY,
      maxTaskWaitMs: 1,
      hooks: {},
    })
    expect(typeof client.run).toBe('function')
  })

  it('rejects a bad run call with a ConfigError, in run and in stream', async () => {
    const client = createClient({ model })
    // @ts-expect-error: a number is no prompt
    await expect(client.run(42)).rejects.toThrow('The prompt must be a string or an array of messages.')
    // @ts-expect-error: not a toolkit
    await expect(client.stream('hi', { toolkit: {} }).result).rejects.toThrow(
      '`toolkit` must be a Toolkit from createToolkit(...).',
    )
    // @ts-expect-error: history is an array
    await expect(client.run('hi', { history: 'earlier' })).rejects.toThrow(
      '`history` must be an array of messages',
    )
  })
})
