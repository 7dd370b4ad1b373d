import { describe, expect, it } from 'vitest'
import { ToolDefinitionError } from '../../src/errors.js'
import { defineTool } from '../../src/tool/define-tool.js'
import type { Tool, ToolContext, ToolResult } from '../../src/tool/types.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'

function recordingLogger() {
  const lines: string[] = []
  return { lines, logger: { warn: (message: string) => lines.push(message) } }
}

function customTool(name: string, execute: Tool['execute'], source: Tool['source'] = 'custom'): Tool {
  return {
    name,
    description: `${name} tool`,
    inputSchema: { type: 'object', properties: {} },
    source,
    execute,
  }
}

const weather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }) => `sunny in ${String(city)}`,
})
const ping = defineTool({ name: 'ping', description: 'Health check', execute: () => 'pong' })

describe('createToolkit: tools, get, execute', () => {
  it('lists host tools in order and finds them by name', async () => {
    const tk = await createToolkit({ tools: [weather, ping] })
    expect(tk.tools().map((tool) => tool.name)).toStrictEqual(['get_weather', 'ping'])
    expect(tk.get('ping')).toBe(ping)
    expect(tk.get('nope')).toBeUndefined()
    expect(await tk.execute('get_weather', { city: 'Chennai' })).toStrictEqual({
      output: 'sunny in Chennai',
      isError: false,
    })
  })

  it('an unknown tool is an error naming it and listing what exists', async () => {
    const tk = await createToolkit({ tools: [weather, ping] })
    expect(await tk.execute('get_wether', {})).toStrictEqual({
      output: 'Unknown tool "get_wether". Available tools: get_weather, ping',
      isError: true,
    })
    const empty = await createToolkit()
    expect(await empty.execute('x', {})).toStrictEqual({
      output: 'Unknown tool "x". Available tools: (none)',
      isError: true,
    })
  })

  it('a schema violation says which argument and why, and the tool does not run', async () => {
    let runs = 0
    // A custom tool that does not validate by itself: the toolkit must.
    const strict: Tool = {
      name: 'strict',
      description: '',
      inputSchema: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
      source: 'custom',
      execute: async () => {
        runs += 1
        return { output: 'ran', isError: false }
      },
    }
    const tk = await createToolkit({ tools: [strict] })
    expect(await tk.execute('strict', { count: 'many' })).toStrictEqual({
      output:
        'Invalid arguments for tool "strict": count: Instance type "string" is invalid. Expected "integer".',
      isError: true,
    })
    expect(await tk.execute('strict', {})).toStrictEqual({
      output: 'Invalid arguments for tool "strict": count: required argument is missing',
      isError: true,
    })
    expect(runs).toBe(0)
    expect(await tk.execute('strict', { count: 2 })).toStrictEqual({ output: 'ran', isError: false })
  })

  it('arguments the check cannot even read are answered, not thrown or rejected', async () => {
    const tk = await createToolkit({
      tools: [
        defineTool({
          name: 'echo',
          description: '',
          inputSchema: { type: 'object', properties: { count: { type: 'integer' } } },
          execute: () => 'ran',
        }),
      ],
    })
    const unreadable = Object.defineProperty({}, 'count', {
      enumerable: true,
      get() {
        throw new Error('no access')
      },
    })
    expect(await tk.execute('echo', unreadable)).toStrictEqual({
      output: 'Tool "echo" failed: no access',
      isError: true,
    })
  })

  it('duplicates: the first wins, and a warning names both sources', async () => {
    const { lines, logger } = recordingLogger()
    const second = customTool('ping', async () => ({ output: 'second', isError: false }), 'http')
    const tk = await createToolkit({ tools: [ping, second], logger })
    expect(tk.tools()).toStrictEqual([ping])
    expect(await tk.execute('ping', {})).toStrictEqual({ output: 'pong', isError: false })
    expect(lines).toStrictEqual([
      'Duplicate tool name "ping": kept the native tool tools[0], dropped the http tool tools[1].',
    ])
    expect(tk.warnings()).toStrictEqual(lines)
  })

  it('disableTools drops by exposed name, also for tools registered later', async () => {
    const tk = await createToolkit({ tools: [weather, ping], disableTools: ['ping'] })
    expect(tk.tools().map((tool) => tool.name)).toStrictEqual(['get_weather'])
    tk.register(ping)
    expect(tk.get('ping')).toBeUndefined()
    expect((await tk.execute('ping', {})).isError).toBe(true)
  })

  it('register adds after creation; a taken name keeps its first owner with a warning', async () => {
    const { lines, logger } = recordingLogger()
    const tk = await createToolkit({ tools: [weather], logger })
    tk.register(
      ping,
      customTool('get_weather', async () => ({ output: 'other', isError: false })),
    )
    expect(tk.tools().map((tool) => tool.name)).toStrictEqual(['get_weather', 'ping'])
    expect(await tk.execute('get_weather', { city: 'Pune' })).toStrictEqual({
      output: 'sunny in Pune',
      isError: false,
    })
    expect(lines).toStrictEqual([
      'Duplicate tool name "get_weather": kept the native tool tools[0], dropped the custom tool register().',
    ])
  })

  it.each([
    { label: 'spaces', name: 'bad name' },
    { label: 'too long', name: 'x'.repeat(65) },
    { label: 'empty', name: '' },
  ])(
    'a tool whose name no provider accepts ($label) fails at creation with a clear message',
    async ({ name }) => {
      const bad = customTool(name, async () => ({ output: '', isError: false }))
      await expect(createToolkit({ tools: [bad] })).rejects.toThrow(ToolDefinitionError)
      await expect(createToolkit({ tools: [bad] })).rejects.toThrow(
        `Tool name ${JSON.stringify(name)} is not allowed: use 1–64 characters from [a-zA-Z0-9_-].`,
      )
    },
  )

  it('the adapter methods render the toolkit’s own tools', async () => {
    const tk = await createToolkit({ tools: [weather, ping] })
    expect(tk.toGemini()[0].functionDeclarations.map((declaration) => declaration.name)).toStrictEqual([
      'get_weather',
      'ping',
    ])
    expect(tk.toOpenAI().map((tool) => tool.function.name)).toStrictEqual(['get_weather', 'ping'])
    expect(tk.toAnthropic().map((tool) => tool.name)).toStrictEqual(['get_weather', 'ping'])
    expect(Object.keys(tk.toAISDK())).toStrictEqual(['get_weather', 'ping'])
    expect(
      tk.toGemini({ parametersJsonSchema: true })[0].functionDeclarations[0]?.parametersJsonSchema,
    ).toStrictEqual(weather.inputSchema)
  })

  it('without sources: empty skills prompt, no MCP servers', async () => {
    const tk = await createToolkit({ tools: [ping] })
    expect(tk.skillsPrompt()).toBe('')
    expect(tk.mcpStatus()).toStrictEqual({})
    expect(tk.mcpServers()).toStrictEqual({})
  })
})

describe('createToolkit: limits, abort and lifecycle', () => {
  it('a call past its deadline is answered with an error and its signal is aborted', async () => {
    let seen: AbortSignal | undefined
    const slow = customTool('slow', (_args, context?: ToolContext) => {
      seen = context?.signal
      return new Promise<ToolResult>(() => {})
    })
    const tk = await createToolkit({ tools: [slow], toolTimeoutMs: 50 })
    const started = Date.now()
    expect(await tk.execute('slow', {})).toStrictEqual({
      output: 'Tool "slow" timed out after 50 ms.',
      isError: true,
    })
    expect(Date.now() - started).toBeLessThan(2000)
    expect(seen?.aborted).toBe(true)
  })

  it('a tool that reads its signal only after the deadline sees it aborted, with the reason', async () => {
    let readLate: (() => AbortSignal) | undefined
    const slow = customTool('slow', (_args, context?: ToolContext) => {
      readLate = () => context?.signal as AbortSignal
      return new Promise<ToolResult>(() => {})
    })
    const tk = await createToolkit({ tools: [slow], toolTimeoutMs: 20 })
    expect((await tk.execute('slow', {})).isError).toBe(true)
    const signal = readLate?.()
    expect(signal?.aborted).toBe(true)
    expect(String(signal?.reason)).toContain('timed out after 20 ms')
  })

  it('a per-call timeoutMs overrides the toolkit default', async () => {
    const slow = customTool('slow', () => new Promise<ToolResult>(() => {}))
    const tk = await createToolkit({ tools: [slow] })
    expect(await tk.execute('slow', {}, { timeoutMs: 30 })).toStrictEqual({
      output: 'Tool "slow" timed out after 30 ms.',
      isError: true,
    })
  })

  it("a call's deadline counts from the call: a tool's own synchronous work before its promise counts too", async () => {
    const busy = customTool('busy', () => {
      const until = Date.now() + 60
      while (Date.now() < until) {}
      return new Promise<ToolResult>((resolve) =>
        setTimeout(() => resolve({ output: 'late', isError: false }), 30),
      )
    })
    const tk = await createToolkit({ tools: [busy], toolTimeoutMs: 40 })
    expect(await tk.execute('busy', {})).toStrictEqual({
      output: 'Tool "busy" timed out after 40 ms.',
      isError: true,
    })
  })

  it('a tool that answers synchronously is answered with its result, however long it took', async () => {
    const busy = defineTool({
      name: 'busy',
      description: 'Works synchronously.',
      execute: () => {
        const until = Date.now() + 30
        while (Date.now() < until) {}
        return 'done'
      },
    })
    const tk = await createToolkit({ tools: [busy], toolTimeoutMs: 10 })
    expect(await tk.execute('busy', {})).toStrictEqual({ output: 'done', isError: false })
  })

  it("abort: a caller's abort during a tool's synchronous work wins over its answer, and reaches its signal", async () => {
    const controller = new AbortController()
    let seen: AbortSignal | undefined
    const aborting = defineTool({
      name: 'aborting',
      description: 'Aborts its caller.',
      execute: (_args, context) => {
        seen = context.signal
        controller.abort()
        return 'answered'
      },
    })
    const tk = await createToolkit({ tools: [aborting] })
    expect(await tk.execute('aborting', {}, { signal: controller.signal })).toStrictEqual({
      output: 'Tool "aborting" was aborted.',
      isError: true,
    })
    expect(seen?.aborted).toBe(true)
  })

  it('abort: a running tool that ignores its signal still answers promptly with an error', async () => {
    let seen: AbortSignal | undefined
    const stubborn = customTool('stubborn', (_args, context?: ToolContext) => {
      seen = context?.signal
      return new Promise<ToolResult>(() => {})
    })
    const tk = await createToolkit({ tools: [stubborn] })
    const controller = new AbortController()
    const pending = tk.execute('stubborn', {}, { signal: controller.signal })
    setTimeout(() => controller.abort(), 20)
    expect(await pending).toStrictEqual({ output: 'Tool "stubborn" was aborted.', isError: true })
    expect(seen?.aborted).toBe(true)
  })

  it('an already aborted call does not run the tool', async () => {
    let runs = 0
    const counted = customTool('counted', async () => {
      runs += 1
      return { output: 'ran', isError: false }
    })
    const tk = await createToolkit({ tools: [counted] })
    const controller = new AbortController()
    controller.abort()
    expect(await tk.execute('counted', {}, { signal: controller.signal })).toStrictEqual({
      output: 'Tool "counted" was not run: the call was aborted.',
      isError: true,
    })
    expect(runs).toBe(0)
  })

  it('output over the cap is cut with a visible marker and the original length in metadata', async () => {
    const chatty = customTool('chatty', async () => ({ output: 'x'.repeat(250), isError: false }))
    const tk = await createToolkit({ tools: [chatty], maxOutputChars: 100 })
    const result = await tk.execute('chatty', {})
    expect(result).toStrictEqual({
      output: `${'x'.repeat(100)}\n…[output truncated: 150 more characters]`,
      isError: false,
      metadata: { truncated: true, originalLength: 250 },
    })
  })

  it('a custom tool that breaks the contract (throws, or returns no ToolResult) still yields an error result', async () => {
    const throwing = customTool('throwing', async () => {
      throw new Error('broken contract')
    })
    const shapeless = customTool('shapeless', async () => 'just text' as unknown as ToolResult)
    // Not even async: a throw before any promise exists, and a bare value instead of a promise.
    const throwingNow = customTool('throwing_now', (() => {
      throw new Error('thrown at once')
    }) as unknown as Tool['execute'])
    const bare = customTool('bare', (() => ({
      output: 'no promise',
      isError: false,
    })) as unknown as Tool['execute'])
    const tk = await createToolkit({ tools: [throwing, shapeless, throwingNow, bare] })
    expect(await tk.execute('throwing', {})).toStrictEqual({
      output: 'Tool "throwing" failed: broken contract',
      isError: true,
    })
    expect(await tk.execute('shapeless', {})).toStrictEqual({
      output: 'The tool returned no ToolResult (expected { output: string, isError: boolean }).',
      isError: true,
    })
    expect(await tk.execute('throwing_now', {})).toStrictEqual({
      output: 'Tool "throwing_now" failed: thrown at once',
      isError: true,
    })
    expect(await tk.execute('bare', {})).toStrictEqual({ output: 'no promise', isError: false })
  })

  it('close is idempotent, and `await using` closes the toolkit', async () => {
    const tk = await createToolkit({ tools: [ping] })
    const first = tk.close()
    expect(tk.close()).toBe(first)
    await expect(first).resolves.toBeUndefined()

    let closed = false
    {
      await using scoped = await createToolkit({ tools: [ping] })
      const close = scoped.close.bind(scoped)
      scoped.close = async () => {
        closed = true
        return close()
      }
      expect(closed).toBe(false)
    }
    expect(closed).toBe(true)
  })
})
