import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import type { LanguageModel } from 'ai'
import { defineTool } from '../../src/tool/define-tool.js'
import type { Tool } from '../../src/tool/types.js'
import { anthropicProtocol } from '../support/scripted-anthropic.js'
import { googleProtocol } from '../support/scripted-google.js'
import { openaiChatProtocol, openaiResponsesProtocol } from '../support/scripted-openai.js'
import type { WireProtocol } from '../support/scripted-server.js'

/** One AI SDK provider pointed at a scripted endpoint. */
export interface ScriptedProvider {
  name: 'openai-chat' | 'openai-responses' | 'anthropic' | 'google'
  protocol: WireProtocol
  model(url: string): LanguageModel
  /** Whether the provider's wire protocol carries call ids (Gemini's does not: the SDK makes them up). */
  sendsCallIds: boolean
}

/** Deterministic ids for providers that make up tool call ids. */
function counterIds(): () => string {
  let next = 0
  return () => `generated-${next++}`
}

export const PROVIDERS: ScriptedProvider[] = [
  {
    name: 'openai-chat',
    protocol: openaiChatProtocol,
    model: (url) => createOpenAI({ baseURL: url, apiKey: 'test-key' }).chat('gpt-scripted'),
    sendsCallIds: true,
  },
  {
    name: 'openai-responses',
    protocol: openaiResponsesProtocol,
    model: (url) => createOpenAI({ baseURL: url, apiKey: 'test-key' }).responses('gpt-scripted'),
    sendsCallIds: true,
  },
  {
    name: 'anthropic',
    protocol: anthropicProtocol,
    model: (url) => createAnthropic({ baseURL: url, apiKey: 'test-key' })('claude-scripted'),
    sendsCallIds: true,
  },
  {
    name: 'google',
    protocol: googleProtocol,
    model: (url) =>
      createGoogleGenerativeAI({ baseURL: url, apiKey: 'test-key', generateId: counterIds() })(
        'gemini-scripted',
      ),
    sendsCallIds: false,
  },
]

export function provider(name: ScriptedProvider['name']): ScriptedProvider {
  const found = PROVIDERS.find((each) => each.name === name)
  if (found === undefined) throw new Error(`no provider ${name}`)
  return found
}

export const weatherTool: Tool = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string', description: 'City name' } },
    required: ['city'],
    additionalProperties: false,
  },
  execute: ({ city }) => `Sunny and 31°C in ${String(city)}.`,
})

export const addTool: Tool = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  execute: ({ a, b }) => ({ sum: Number(a) + Number(b) }),
})

export { aiMajor } from '../support/ai-version.js'
