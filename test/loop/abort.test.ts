import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { AbortError } from '../../src/errors.js'
import type { Tool, ToolContext } from '../../src/tool/types.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { MockLanguageModel, textResult } from '../adapters/mock-language-model.js'
import { type ScriptedServer, type ScriptStep, startScriptedServer } from '../support/scripted-server.js'
import { provider } from './support.js'

type MockModel = InstanceType<typeof MockLanguageModel>

const servers: ScriptedServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function serve(script: ScriptStep[]): Promise<ScriptedServer> {
  const server = await startScriptedServer({ protocol: provider('openai-chat').protocol, script })
  servers.push(server)
  return server
}

/** A tool that ignores its signal and never returns, keeping the context it was given. */
function stubbornTool(): { tool: Tool; contexts: ToolContext[] } {
  const contexts: ToolContext[] = []
  return {
    contexts,
    tool: {
      name: 'stubborn',
      description: 'Ignores its signal.',
      inputSchema: { type: 'object', properties: {} },
      source: 'custom',
      execute: (_args, context) => {
        contexts.push(context ?? {})
        return new Promise(() => {})
      },
    },
  }
}

const CALL_STUBBORN: ScriptStep = {
  type: 'reply',
  toolCalls: [{ id: 's1', name: 'stubborn', arguments: '{}' }],
}

async function settle(
  mode: 'run' | 'stream',
  start: () => ReturnType<ReturnType<typeof createClient>['stream']>,
  run: () => Promise<unknown>,
): Promise<unknown> {
  if (mode === 'run') return run().catch((error: unknown) => error)
  const stream = start()
  try {
    for await (const _event of stream) {
      // drain
    }
  } catch (error) {
    await expect(stream.result).rejects.toBe(error)
    return error
  }
  return undefined
}

describe.each(['run', 'stream'] as const)('abort (%s)', (mode) => {
  it('a signal aborted mid-tool rejects promptly, though the tool ignores its signal', async () => {
    const server = await serve([CALL_STUBBORN, { type: 'reply', text: 'never' }])
    const { tool, contexts } = stubbornTool()
    const toolkit = await createToolkit({ tools: [tool] })
    const client = createClient({ model: provider('openai-chat').model(server.url) })
    const controller = new AbortController()
    const reason = new Error('user left')
    const started = Date.now()
    const watch = setInterval(() => {
      if (contexts.length > 0) {
        clearInterval(watch)
        controller.abort(reason)
      }
    }, 5)
    const options = { toolkit, signal: controller.signal }
    const error = await settle(
      mode,
      () => client.stream('Go', options),
      () => client.run('Go', options),
    )
    clearInterval(watch)
    expect(AbortError.isInstance(error)).toBe(true)
    expect((error as AbortError).name).toBe('AbortError')
    expect((error as AbortError).cause).toBe(reason)
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(contexts[0]?.signal?.aborted).toBe(true)
    expect(contexts[0]?.toolCallId).toBe('s1')
    expect(server.requests).toHaveLength(1)
  })

  it('timeoutMs aborts a model call that never answers', async () => {
    const server = await serve([{ type: 'hang' }])
    const client = createClient({ model: provider('openai-chat').model(server.url), timeoutMs: 200 })
    const started = Date.now()
    const error = await settle(
      mode,
      () => client.stream('Go'),
      () => client.run('Go'),
    )
    expect(AbortError.isInstance(error)).toBe(true)
    expect((error as Error).message).toBe('The run timed out after 200 ms.')
    expect(Date.now() - started).toBeLessThan(1_500)
  })

  it('timeoutMs aborts a running tool too', async () => {
    const server = await serve([CALL_STUBBORN, { type: 'reply', text: 'never' }])
    const { tool, contexts } = stubbornTool()
    const toolkit = await createToolkit({ tools: [tool] })
    // The deadline must outlast the first model call, which a loaded machine can stretch past a second:
    // a deadline that lands before the tool starts tests the model call instead.
    const client = createClient({ model: provider('openai-chat').model(server.url), timeoutMs: 2_500 })
    const error = await settle(
      mode,
      () => client.stream('Go', { toolkit }),
      () => client.run('Go', { toolkit }),
    )
    expect([AbortError.isInstance(error), (error as AbortError).reason]).toStrictEqual([true, 'timeout'])
    expect(contexts).toHaveLength(1)
    expect(contexts[0]?.signal?.aborted).toBe(true)
  })

  it('an already aborted signal rejects before any model call', async () => {
    const server = await serve([{ type: 'reply', text: 'never' }])
    const client = createClient({ model: provider('openai-chat').model(server.url) })
    const options = { signal: AbortSignal.abort() }
    const error = await settle(
      mode,
      () => client.stream('Go', options),
      () => client.run('Go', options),
    )
    expect(AbortError.isInstance(error)).toBe(true)
    expect(server.requests).toHaveLength(0)
  })
})

it('leaving a stream early stops the run and its tools', async () => {
  const server = await serve([CALL_STUBBORN, { type: 'reply', text: 'never' }])
  const { tool, contexts } = stubbornTool()
  const toolkit = await createToolkit({ tools: [tool] })
  const stream = createClient({ model: provider('openai-chat').model(server.url) }).stream('Go', { toolkit })
  for await (const event of stream) {
    if (event.type === 'tool-call') break
  }
  await expect(stream.result).rejects.toThrow('its stream was closed before the run finished')
  expect(contexts.length === 0 || contexts[0]?.signal?.aborted === true).toBe(true)
})

it('a stream can be read only once', async () => {
  const server = await serve([{ type: 'reply', text: 'once' }])
  const stream = createClient({ model: provider('openai-chat').model(server.url) }).stream('Go')
  const events: string[] = []
  for await (const event of stream) events.push(event.type)
  expect(events.at(-1)).toBe('finish')
  await expect(
    (async () => {
      for await (const _event of stream) {
        // second read
      }
    })(),
  ).rejects.toThrow('A run stream can be read once')
  expect((await stream.result).text).toBe('once')
})

describe('the signal handed to the model call', () => {
  // A signal handed to fetch costs Node about 0.25 ms of CPU per request, so a run that nothing can
  // abort sends none; one that can be aborted always does.
  it('is left out when nothing can abort the run, and passed when something can', async () => {
    const answer = (): MockModel => new MockLanguageModel({ doGenerate: textResult('ok') })
    const quiet = answer()
    await createClient({ model: quiet }).run('hi')
    expect(quiet.doGenerateCalls[0]?.abortSignal).toBeUndefined()

    const withSignal = answer()
    await createClient({ model: withSignal }).run('hi', { signal: new AbortController().signal })
    expect(withSignal.doGenerateCalls[0]?.abortSignal).toBeInstanceOf(AbortSignal)

    const withDeadline = answer()
    await createClient({ model: withDeadline, timeoutMs: 10_000 }).run('hi')
    expect(withDeadline.doGenerateCalls[0]?.abortSignal).toBeInstanceOf(AbortSignal)
  })
})
