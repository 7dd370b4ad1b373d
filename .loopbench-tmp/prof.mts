import { createClient, createToolkit, defineTool } from '/work/main/src/index.js'
const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const
const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } }
const model: any = {
  specificationVersion: 'v3', provider: 'p', modelId: 'm', supportedUrls: {},
  async doGenerate(o: any) {
    const last = o.prompt.at(-1)
    if (last.role === 'tool') return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop' }, usage, warnings: [] }
    return { content: [
      { type: 'tool-call', toolCallId: 'a', toolName: 'get_weather', input: '{"city":"Chennai"}' },
      { type: 'tool-call', toolCallId: 'b', toolName: 'get_time', input: '{"city":"Chennai"}' }], finishReason: { unified: 'tool-calls' }, usage, warnings: [] }
  },
  async doStream() { throw new Error('no') },
}
const toolkit = await createToolkit({ tools: [
  defineTool({ name: 'get_weather', description: 'w', inputSchema: schema, execute: async ({ city }) => `sunny ${city}` }),
  defineTool({ name: 'get_time', description: 't', inputSchema: schema, execute: async ({ city }) => `14:00 ${city}` }),
] })
const client = createClient({ model, system: 'sys' })
const t = performance.now()
for (let i = 0; i < 20000; i++) await client.run('q', { toolkit })
console.log(((performance.now() - t) / 20000 * 1000).toFixed(1), 'µs/run')
