import { afterEach, describe, expect, it, vi } from 'vitest'
import { createGenAIDemo } from '../../examples/demo-genai.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'

afterEach(() => {
  vi.unstubAllEnvs()
})

const weather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }) => `${String(city)}: 31°C, humid`,
})
const convert = defineTool({
  name: 'convert_temperature',
  description: 'Converts a temperature in celsius to fahrenheit.',
  inputSchema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
  execute: ({ celsius }) => `${(Number(celsius) * 9) / 5 + 32}°F`,
})

describe('examples/demo-genai (offline)', () => {
  it('plans from the declarations it receives, over the real SDK, in run and stream', async () => {
    vi.stubEnv('GEMINI_API_KEY', '')
    vi.stubEnv('GOOGLE_API_KEY', '')
    const demo = await createGenAIDemo({ system: 'Be brief.' })
    await using toolkit = await createToolkit({ tools: [weather, convert] })
    try {
      expect(demo.mode).toBe('offline')
      const result = await demo.client.run('What is the weather in Chennai?', { toolkit })
      expect(result.toolCalls.map(({ name, args, output }) => ({ name, args, output }))).toStrictEqual([
        { name: 'get_weather', args: { city: 'Chennai' }, output: 'Chennai: 31°C, humid' },
      ])
      expect(result.text).toContain('Chennai: 31°C, humid')

      // A different question picks a different tool, with its argument read from the question.
      const events: string[] = []
      const stream = demo.client.stream('Convert 30 celsius to fahrenheit', { toolkit })
      for await (const event of stream) events.push(event.type)
      const streamed = await stream.result
      expect(streamed.toolCalls.map(({ name, output }) => ({ name, output }))).toStrictEqual([
        { name: 'convert_temperature', output: '86°F' },
      ])
      expect(events.filter((type) => type === 'text-delta').length).toBeGreaterThan(3)
      expect(events.at(-1)).toBe('finish')

      // Without tools it answers in text and says so.
      expect((await demo.client.run('Hello there')).text).toContain('I have no tools.')
    } finally {
      await demo.close()
    }
  })
})
