import { createClient, createToolkit, defineTool } from '/work/main/src/index.js'
const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const
const weather = async (city: string) => `sunny in ${city}`
const time = async (city: string) => `14:00 in ${city}`
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
  defineTool({ name: 'get_weather', description: 'w', inputSchema: schema, execute: ({ city }) => weather(String(city)) }),
  defineTool({ name: 'get_time', description: 't', inputSchema: schema, execute: ({ city }) => time(String(city)) }),
] })
const client = createClient({ model, system: 'sys' })
const decl = [{ type: 'function', name: 'get_weather', description: 'w', inputSchema: schema }, { type: 'function', name: 'get_time', description: 't', inputSchema: schema }]
const floor = async () => {
  const prompt: any[] = [{ role: 'system', content: 'sys' }, { role: 'user', content: [{ type: 'text', text: 'q' }] }]
  for (;;) {
    const r = await model.doGenerate({ prompt, tools: decl })
    const calls = r.content.filter((p: any) => p.type === 'tool-call')
    if (calls.length === 0) return
    const parsed = calls.map((c: any) => JSON.parse(c.input))
    const outs = await Promise.all(calls.map((c: any, i: number) => (c.toolName === 'get_weather' ? weather : time)(parsed[i].city)))
    prompt.push({ role: 'assistant', content: calls.map((c: any, i: number) => ({ type: 'tool-call', toolCallId: c.toolCallId, toolName: c.toolName, input: parsed[i] })) })
    prompt.push({ role: 'tool', content: calls.map((c: any, i: number) => ({ type: 'tool-result', toolCallId: c.toolCallId, toolName: c.toolName, output: { type: 'text', value: outs[i] } })) })
  }
}
const tn = () => client.run('q', { toolkit })
const direct = async () => { await toolkit.execute('get_weather', { city: 'x' }, {}); await toolkit.execute('get_time', { city: 'x' }, {}) }
for (const [name, f] of [['floor', floor], ['toolnexus', tn], ['toolkit.execute x2', direct]] as const) {
  for (let i = 0; i < 2000; i++) await f()
  const t = performance.now(); const n = 5000
  for (let i = 0; i < n; i++) await f()
  console.log(name, ((performance.now() - t) / n * 1000).toFixed(1), 'µs/run')
}
