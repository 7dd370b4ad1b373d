// Type tests of the public API: checked by `npm run typecheck` (tsc), never run.
import type { Content, GenerateContentConfig } from '@google/genai'
import { GoogleGenAI } from '@google/genai'
import type { ModelMessage, ToolSet } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { expectTypeOf } from 'vitest'
import { createDbosRunner, type DbosRunner } from '../src/dbos/index.js'
import {
  type AnthropicTool,
  type ApprovalErrorCode,
  type CheckedCall,
  type ClaimStore,
  ConfigError,
  createClient,
  createMemoryStore,
  createToolkit,
  createWordVectors,
  type DurableRunner,
  defineTool,
  executeFunctionCalls,
  fromGetSaveStore,
  type GeminiToolWrapper,
  type GenAIContent,
  InMemoryConversationStore,
  type OpenAITool,
  type RunEvent,
  type RunResult,
  type Tool,
  type ToolMatch,
  type ToolResult,
  type ToolSearchOptions,
  toGemini,
  toGenAITools,
  type WordVectors,
} from '../src/index.js'

const weather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }) => `sunny in ${String(city)}`,
})
expectTypeOf(weather).toEqualTypeOf<Tool>()
expectTypeOf(weather.execute).returns.resolves.toEqualTypeOf<ToolResult>()

// toGemini is one wrapper, as a tuple: `[0]` needs no undefined check.
expectTypeOf(toGemini([weather])).toEqualTypeOf<[GeminiToolWrapper]>()
expectTypeOf(toGemini([weather])[0].functionDeclarations).toBeArray()

const toolkit = await createToolkit({ tools: [weather] })
expectTypeOf(toolkit.toOpenAI()).toEqualTypeOf<OpenAITool[]>()

// Tool search: ranked matches, and the options the loop reads.
expectTypeOf(toolkit.search('weather', { limit: 3 })).resolves.toEqualTypeOf<ToolMatch[]>()
expectTypeOf<ToolMatch>().toEqualTypeOf<{ name: string; description: string; score: number }>()
expectTypeOf({
  alwaysLoaded: ['get_weather'],
  limit: 8,
  native: 'auto',
} as const).toExtend<ToolSearchOptions>()
const wordVectors = createWordVectors({ dimensions: 2, words: ['a'], vectors: { a: [1, 0] } }, { limit: 10 })
expectTypeOf(wordVectors).toEqualTypeOf<WordVectors>()
expectTypeOf({ wordVectors }).toExtend<ToolSearchOptions>()
expectTypeOf(toolkit.toAnthropic()).toEqualTypeOf<AnthropicTool[]>()
expectTypeOf(toolkit.toAISDK()).toExtend<ToolSet>()
expectTypeOf(toolkit.toAISDK({ provider: 'google' })).toExtend<ToolSet>()
expectTypeOf(toolkit.execute('get_weather', { city: 'Pune' })).resolves.toEqualTypeOf<ToolResult>()
// One check of a call's arguments, shared by its approval verdict and its run.
const checked = toolkit.checkCall?.('get_weather', { city: 'Pune' }, 'call_1')
expectTypeOf(checked).toEqualTypeOf<CheckedCall | undefined>()
expectTypeOf<CheckedCall['needsApproval']>().toEqualTypeOf<boolean | Promise<boolean>>()
expectTypeOf<CheckedCall['execute']>().returns.resolves.toEqualTypeOf<ToolResult>()
// Whether some call of a tool may wait for approval, whatever its arguments (the MCP server asks).
expectTypeOf(toolkit.mayNeedApproval?.('get_weather')).toEqualTypeOf<boolean | undefined>()

// The transcript type follows the transport: AI SDK messages, or Gemini contents.
const aiClient = createClient({ model: new MockLanguageModelV4() })
expectTypeOf(aiClient.run('hi', { toolkit })).resolves.toEqualTypeOf<RunResult<ModelMessage>>()
expectTypeOf(aiClient.stream('hi', { toolkit })).toExtend<AsyncIterable<RunEvent<ModelMessage>>>()

const genaiClient = createClient({ genai: new GoogleGenAI({ apiKey: 'key' }), model: 'gemini-2.5-flash' })
expectTypeOf(genaiClient.run('hi', { toolkit })).resolves.toEqualTypeOf<RunResult<GenAIContent>>()
// GenAIContent is a structural copy of the SDK's Content (the declarations never import @google/genai):
// the SDK's contents go in as history, and the transcript goes back to the SDK as contents.
declare const sdkContents: Content[]
await genaiClient.run('hi', { toolkit, history: sdkContents })
const transcript: Content[] = (await genaiClient.run('hi', { toolkit })).messages
const genai = new GoogleGenAI({ apiKey: 'key' })
await genai.models.generateContent({
  model: 'gemini-2.5-flash',
  contents: transcript,
  config: { tools: toGenAITools(toolkit) },
})
const answers = await executeFunctionCalls(
  toolkit,
  await genai.models.generateContent({ model: 'm', contents: 'hi' }),
)
sdkContents.push(answers)
createClient({
  genai,
  model: 'gemini-2.5-flash',
  config: { temperature: 0, safetySettings: [], thinkingConfig: { thinkingBudget: 0 } },
})
declare const sdkConfig: GenerateContentConfig
createClient({ genai, model: 'gemini-2.5-flash', config: sdkConfig })

// A store needs no type argument with either transport: the client's message type is inferred into it.
createClient({ model: new MockLanguageModelV4(), store: new InMemoryConversationStore() })
createClient({ model: new MockLanguageModelV4(), store: createMemoryStore<ModelMessage>({ ttlSeconds: 60 }) })
expectTypeOf(createMemoryStore()).toEqualTypeOf<InMemoryConversationStore<unknown>>()
createClient({
  genai: new GoogleGenAI({ apiKey: 'key' }),
  model: 'gemini-2.5-flash',
  store: new InMemoryConversationStore(),
})

// A store in the other ports' get/save shape goes in through fromGetSaveStore, typed by its messages.
declare const getSave: {
  get(id: string): Promise<ModelMessage[] | undefined>
  save(id: string, messages: ModelMessage[]): Promise<void>
}
createClient({ model: new MockLanguageModelV4(), store: fromGetSaveStore(getSave) })

// Every store claims; `claims` takes any of them, with a secret and an approval TTL.
expectTypeOf(new InMemoryConversationStore()).toExtend<ClaimStore>()
createClient({
  model: new MockLanguageModelV4(),
  secret: 'a secret every instance shares',
  claims: new InMemoryConversationStore(),
  approvalTtlSeconds: 3_600,
})
expectTypeOf<'expired-approval'>().toExtend<ApprovalErrorCode>()

// Events are a discriminated union, narrowed by `type`.
declare const event: RunEvent<ModelMessage>
if (event.type === 'tool-result') expectTypeOf(event.isError).toBeBoolean()
if (event.type === 'finish') {
  expectTypeOf(event.result.status).toEqualTypeOf<'done' | 'max-turns' | 'suspended'>()
  if (event.result.status === 'suspended')
    expectTypeOf(event.result.pending[0]?.approvalId).toEqualTypeOf<string | undefined>()
}
if (event.type === 'tool-approval-request') expectTypeOf(event.approvalId).toBeString()

// Errors narrow through isInstance.
declare const thrown: unknown
if (ConfigError.isInstance(thrown)) expectTypeOf(thrown).toEqualTypeOf<ConfigError>()

// Durable runs: a DBOS runner is a DurableRunner for either transport; a run takes a runId; every tool
// reads its idempotency key from the context.
declare const dbos: DbosRunner
expectTypeOf(createDbosRunner).returns.resolves.toEqualTypeOf<DbosRunner>()
expectTypeOf(dbos).toExtend<DurableRunner>()
const durableClient = createClient({ model: new MockLanguageModelV4(), durable: dbos })
void durableClient.run('Refund order 42', { runId: 'order-42' })
createClient({ genai: new GoogleGenAI({ apiKey: 'key' }), model: 'gemini-2.5-flash', durable: dbos })
defineTool({
  name: 'refund',
  description: 'Refunds an order.',
  inputSchema: { type: 'object', properties: {} },
  execute: (_args, context) => {
    expectTypeOf(context.idempotencyKey).toEqualTypeOf<string | undefined>()
    return 'ok'
  },
})
