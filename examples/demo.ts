// The toolnexus demo: one toolkit (a native tool, an MCP server, a skill) driven by the tool-calling loop.
//
//   npm run demo                      offline: an in-process scripted LanguageModel decides the tool calls
//   OPENAI_API_KEY=… npm run demo     the same through OpenAI (or ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY)
//   npm run demo -- --genai           through @google/genai instead of the AI SDK (TOOLNEXUS_TRANSPORT=genai)
//
// Set TOOLNEXUS_MODEL to pick the provider's model id.
import { fileURLToPath } from 'node:url'
import type { LanguageModel, ModelMessage } from 'ai'
import {
  type Client,
  createClient,
  createToolkit,
  defineTool,
  type GenAIMessage,
  type RunResult,
  type Toolkit,
} from '../src/index.js'
import { ScriptedLanguageModel } from './scripted-language-model.js'

const SYSTEM =
  'You are a concise assistant. Use the tools you are given; never guess what a tool can tell you.'
const RUN_PROMPT = 'Use the hello-world skill, then tell me the weather in Chennai and what 2 + 3 is.'
const STREAM_PROMPT = 'What is the weather in Lisbon? Also echo "toolnexus streams".'

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url))

const weather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string', description: 'City name, like "Chennai"' } },
    required: ['city'],
  },
  // A stand-in forecast: the same city always gets the same weather.
  execute: ({ city }) => {
    const name = String(city)
    const seed = [...name].reduce((sum, char) => sum + char.charCodeAt(0), 0)
    const sky = ['sunny', 'cloudy', 'rainy', 'windy'][seed % 4]
    return `${sky}, ${18 + (seed % 15)}°C in ${name}`
  },
})

async function main(): Promise<void> {
  const useGenAI = process.argv.includes('--genai') || process.env.TOOLNEXUS_TRANSPORT === 'genai'
  const toolkit = await createToolkit({
    tools: [weather],
    mcpConfig: here('./mcp.json'),
    skillsDir: here('./skills'),
    logger: { warn: (message) => console.log(`  ! ${message}`) },
  })
  try {
    describeToolkit(toolkit)
    if (useGenAI) await runGenAI(toolkit)
    else await runAISDK(toolkit)
  } finally {
    await toolkit.close()
  }
}

function describeToolkit(toolkit: Toolkit): void {
  const bySource = new Map<string, string[]>()
  for (const tool of toolkit.tools())
    bySource.set(tool.source, [...(bySource.get(tool.source) ?? []), tool.name])
  console.log(`Toolkit: ${toolkit.tools().length} tools`)
  for (const [source, names] of bySource) console.log(`  ${source.padEnd(7)} ${names.join(', ')}`)
  for (const [server, info] of Object.entries(toolkit.mcpServers())) {
    const reason = info.status === 'failed' && 'reason' in info ? ` — ${String(info.reason)}` : ''
    console.log(`  mcp server "${server}": ${info.status}${reason}`)
  }
  if (!bySource.has('mcp')) console.log('  (no MCP tools: the demo goes on with the others)')
  if (!bySource.has('skill')) console.log('  (no skills: the demo goes on with the others)')
}

async function runAISDK(toolkit: Toolkit): Promise<void> {
  const { model, label } = await pickModel()
  console.log(`Model: ${label} (AI SDK transport)\n`)
  const client = createClient({ model, system: SYSTEM, maxTurns: 6 })
  await demoRun(client, toolkit)
  await demoStream(client, toolkit)
}

async function runGenAI(toolkit: Toolkit): Promise<void> {
  let load: (options: { system?: string }) => Promise<{
    client: Client<GenAIMessage>
    mode: string
    model: string
    close(): Promise<void>
  }>
  try {
    load = (await import('./demo-genai.js')).createGenAIDemo
  } catch (error) {
    console.log(`The @google/genai demo is not available (${String(error)}); run without --genai.`)
    process.exitCode = 1
    return
  }
  const demo = await load({ system: SYSTEM })
  console.log(`Model: ${demo.model} (@google/genai transport, ${demo.mode})\n`)
  try {
    await demoRun(demo.client, toolkit)
    await demoStream(demo.client, toolkit)
  } finally {
    await demo.close()
  }
}

/** A real provider when its key is set, else the offline scripted model. */
async function pickModel(): Promise<{ model: LanguageModel; label: string }> {
  const chosen = process.env.TOOLNEXUS_MODEL
  if (process.env.OPENAI_API_KEY) {
    const { openai } = await import('@ai-sdk/openai')
    const id = chosen ?? 'gpt-5-mini'
    return { model: openai(id), label: `OpenAI ${id}` }
  }
  if (process.env.ANTHROPIC_API_KEY) {
    const { anthropic } = await import('@ai-sdk/anthropic')
    const id = chosen ?? 'claude-haiku-4-5'
    return { model: anthropic(id), label: `Anthropic ${id}` }
  }
  if (process.env.GOOGLE_GENERATIVE_AI_API_KEY) {
    const { google } = await import('@ai-sdk/google')
    const id = chosen ?? 'gemini-2.5-flash'
    return { model: google(id), label: `Google ${id}` }
  }
  return {
    model: new ScriptedLanguageModel(),
    label: 'scripted, offline (set OPENAI_API_KEY to use a real model)',
  }
}

async function demoRun<Message>(client: Client<Message>, toolkit: Toolkit): Promise<void> {
  console.log('── client.run ─────────────────────────────────────────────')
  console.log(`> ${RUN_PROMPT}`)
  const result = await client.run(RUN_PROMPT, { toolkit })
  for (const call of result.toolCalls) {
    console.log(`  → ${call.name} ${JSON.stringify(call.args)}`)
    console.log(`  ← ${call.isError ? 'error: ' : ''}${preview(call.output)}`)
  }
  console.log(`\n${result.text}\n`)
  summary(result)
}

async function demoStream<Message>(client: Client<Message>, toolkit: Toolkit): Promise<void> {
  console.log('\n── client.stream ──────────────────────────────────────────')
  console.log(`> ${STREAM_PROMPT}`)
  const stream = client.stream(STREAM_PROMPT, { toolkit })
  let writing = false
  for await (const event of stream) {
    switch (event.type) {
      case 'text-delta':
        if (!writing) process.stdout.write('\n')
        writing = true
        process.stdout.write(event.text)
        break
      case 'tool-call':
        console.log(`  → ${event.toolName} ${JSON.stringify(event.input)}`)
        break
      case 'tool-result':
        console.log(`  ← ${event.isError ? 'error: ' : ''}${preview(event.output)}`)
        break
      case 'step-end':
        if (writing) process.stdout.write('\n')
        writing = false
        break
      case 'finish':
        console.log('')
        summary(event.result)
        break
    }
  }
}

function summary<Message>(result: RunResult<Message>): void {
  const { usage } = result
  console.log(
    `  [${result.status} · ${result.turns} turns · ${result.toolCalls.length} tool calls · ${usage.totalTokens} tokens (${usage.inputTokens} in, ${usage.outputTokens} out) · finish: ${result.finishReason}]`,
  )
}

function preview(output: string): string {
  const flat = output.replace(/\s+/g, ' ').trim()
  return flat.length > 110 ? `${flat.slice(0, 110)}… (${output.length} chars)` : flat
}

// Keeps ModelMessage in the type graph for readers: `client.run` on the AI SDK side returns ModelMessage[].
export type DemoTranscript = ModelMessage[]

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
