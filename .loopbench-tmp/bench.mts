import { spawn } from 'node:child_process'
import { createOpenAI } from '@ai-sdk/openai'
import { generateText, jsonSchema, tool, stepCountIs } from 'ai'
import { createClient, createToolkit, defineTool } from '/work/main/src/index.js'
const child = spawn('npx', ['tsx', '/work/main/.loopbench-tmp/server.mts'], { stdio: ['ignore', 'pipe', 'inherit'] })
const url: string = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(String(d).trim())))
const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const
const weather = async (city: string) => `sunny in ${city}`
const time = async (city: string) => `14:00 in ${city}`
const model = createOpenAI({ baseURL: url, apiKey: 'x' }).chat('m')
const toolkit = await createToolkit({ tools: [
  defineTool({ name: 'get_weather', description: 'w', inputSchema: schema, execute: ({ city }) => weather(String(city)) }),
  defineTool({ name: 'get_time', description: 't', inputSchema: schema, execute: ({ city }) => time(String(city)) }),
] })
const client = createClient({ model, system: 'sys' })
const aiTools = {
  get_weather: tool({ description: 'w', inputSchema: jsonSchema<{ city: string }>(schema), execute: ({ city }) => weather(city) }),
  get_time: tool({ description: 't', inputSchema: jsonSchema<{ city: string }>(schema), execute: ({ city }) => time(city) }),
}
const decl = [{ type: 'function' as const, name: 'get_weather', description: 'w', inputSchema: schema }, { type: 'function' as const, name: 'get_time', description: 't', inputSchema: schema }]
const impls: Record<string, () => Promise<string>> = {
  toolnexus: async () => (await client.run('Weather and time in Chennai?', { toolkit })).text,
  generateText: async () => (await generateText({ model, system: 'sys', prompt: 'Weather and time in Chennai?', tools: aiTools, stopWhen: stepCountIs(10) })).text,
  floor: async () => {
    const prompt: any[] = [{ role: 'system', content: 'sys' }, { role: 'user', content: [{ type: 'text', text: 'Weather and time in Chennai?' }] }]
    for (;;) {
      const r = await model.doGenerate({ prompt, tools: decl })
      const calls = r.content.flatMap((p) => (p.type === 'tool-call' ? [p] : []))
      if (calls.length === 0) return r.content.map((p) => (p.type === 'text' ? p.text : '')).join('')
      const parsed = calls.map((c) => JSON.parse(c.input))
      const outs = await Promise.all(calls.map((c, i) => (c.toolName === 'get_weather' ? weather : time)(parsed[i].city)))
      prompt.push({ role: 'assistant', content: calls.map((c, i) => ({ type: 'tool-call', toolCallId: c.toolCallId, toolName: c.toolName, input: parsed[i] })) })
      prompt.push({ role: 'tool', content: calls.map((c, i) => ({ type: 'tool-result', toolCallId: c.toolCallId, toolName: c.toolName, output: { type: 'text', value: outs[i] } })) })
    }
  },
}
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]! }
for (const f of Object.values(impls)) for (let i = 0; i < 30; i++) await f()
const ratios: Record<string, number[]> = { vsGen: [], vsFloor: [] }
const all: Record<string, number[]> = { toolnexus: [], generateText: [], floor: [] }
for (let round = 0; round < 12; round++) {
  const med: Record<string, number> = {}
  for (const name of Object.keys(impls).sort(() => Math.random() - 0.5)) {
    const times: number[] = []
    for (let i = 0; i < 15; i++) { const t = performance.now(); await impls[name]!(); times.push(performance.now() - t) }
    med[name] = median(times); all[name]!.push(med[name]!)
  }
  ratios.vsGen!.push(med.toolnexus! / med.generateText!)
  ratios.vsFloor!.push(med.toolnexus! / med.floor!)
}
console.log('median ms', Object.fromEntries(Object.entries(all).map(([k, v]) => [k, median(v).toFixed(2)])))
console.log('toolnexus / generateText', median(ratios.vsGen!).toFixed(3), 'toolnexus / floor', median(ratios.vsFloor!).toFixed(3))
child.kill()
process.exit(0)
