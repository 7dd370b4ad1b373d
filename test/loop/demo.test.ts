import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { readUIMessageStream, type UIMessageChunk } from 'ai'
import { describe, expect, it } from 'vitest'
import { ScriptedLanguageModel } from '../../examples/scripted-language-model.js'
import { createClient } from '../../src/client/create-client.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { addTool, weatherTool } from './support.js'

const run = promisify(execFile)

describe('the scripted demo model decides from what it is given', () => {
  it('calls the tools that fit, with arguments from the question, and answers from their results', async () => {
    const toolkit = await createToolkit({ tools: [weatherTool, addTool], skillsDir: 'test/fixtures/skills' })
    const client = createClient({ model: new ScriptedLanguageModel() })
    const result = await client.run('Use the hello-world skill: weather in Pune, and 40 + 2?', { toolkit })
    expect(result.toolCalls.map(({ name, args, isError }) => ({ name, args, isError }))).toStrictEqual([
      { name: 'skill', args: { name: 'hello-world' }, isError: false },
      { name: 'get_weather', args: { city: 'Pune' }, isError: false },
      { name: 'add', args: { a: 40, b: 2 }, isError: false },
    ])
    expect(result.text).toBe(
      'Here is what my tools told me:\n- skill: # Skill: hello-world\n- get_weather: Sunny and 31°C in Pune.\n- add: {"sum":42}',
    )
    expect(result.turns).toBe(3)
  })

  it('calls nothing it was not given', async () => {
    const result = await createClient({ model: new ScriptedLanguageModel() }).run('Weather in Pune?')
    expect(result.toolCalls).toStrictEqual([])
    expect(result.text).toBe('I have no tools, so I can only say: hello!')
  })

  it('streams, and the stream becomes an AI SDK UI message stream', async () => {
    const toolkit = await createToolkit({ tools: [weatherTool] })
    const response = createClient({ model: new ScriptedLanguageModel() })
      .stream('What is the weather in Oslo?', { toolkit })
      .toUIMessageStreamResponse()
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const text = await response.text()
    const chunks = text
      .split('\n\n')
      .filter((event) => event.startsWith('data: {'))
      .map((event) => JSON.parse(event.slice('data: '.length)) as UIMessageChunk)
    let last: Awaited<ReturnType<typeof readUIMessageStream>> extends AsyncIterable<infer M> ? M : never
    for await (const message of readUIMessageStream({
      stream: new ReadableStream<UIMessageChunk>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk)
          controller.close()
        },
      }),
    })) {
      last = message
    }
    // @ts-expect-error: assigned in the loop above
    const parts = last.parts as Array<{
      type: string
      toolName?: string
      state?: string
      output?: unknown
      text?: string
    }>
    const tool = parts.find((part) => part.type === 'dynamic-tool' || part.type.startsWith('tool-'))
    expect([tool?.toolName ?? tool?.type, tool?.state, tool?.output]).toStrictEqual([
      expect.stringMatching(/^(tool-)?get_weather$/),
      'output-available',
      'Sunny and 31°C in Oslo.',
    ])
    expect(parts.filter((part) => part.type === 'text').map((part) => part.text)).toStrictEqual([
      'Here is what my tools told me:\n- get_weather: Sunny and 31°C in Oslo.',
    ])
  })
})

it('npm run demo runs offline through the MCP server, the skill and a native tool', {
  // npx, tsx, the MCP server and the scripted model: minutes on a loaded machine.
  timeout: 240_000,
}, async () => {
  const environment = { ...process.env }
  for (const key of [
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'GOOGLE_GENERATIVE_AI_API_KEY',
    'TOOLNEXUS_TRANSPORT',
  ]) {
    delete environment[key]
  }
  const { stdout } = await run('npx', ['tsx', 'examples/demo.ts'], { env: environment, timeout: 220_000 })
  expect(stdout).toContain('mcp server "everything": connected')
  expect(stdout).toContain('→ skill {"name":"hello-world"}')
  expect(stdout).toContain('→ get_weather {"city":"Chennai"}')
  expect(stdout).toContain('→ everything_get-sum {"a":2,"b":3}')
  expect(stdout).toContain('← The sum of 2 and 3 is 5.')
  expect(stdout).toContain('→ everything_echo {"message":"toolnexus streams"}')
  expect(stdout).toContain('← Echo: toolnexus streams')
  expect(stdout.match(/\[done · /g)).toHaveLength(2)
})
