import type { LanguageModel, ModelMessage } from 'ai'
import type { ApprovalResponse, RunOptions } from '../contracts/run-types.js'
import type { DurableRunner } from '../durable/durable-runner.js'
import type { GenAIClient, GenAIContent, GenAIGenerationConfig } from '../genai/genai-types.js'
import type { LoopOptions } from '../loop/settings.js'
import type { Logger } from '../shared/logger.js'
import type { ConversationStore } from '../stores/conversation-store.js'

/** The message type of the `@google/genai` transport: a Gemini `Content`. */
export type GenAIMessage = GenAIContent

/** Options every client takes, whatever the model behind it. */
export interface ClientOptions<Message> extends LoopOptions<Message> {
  /** Where `ask` keeps conversations. @default new InMemoryConversationStore() */
  store?: ConversationStore<Message>
  /**
   * Makes every run durable on an engine: each model call and each tool call a recorded step, so that a
   * run killed midway finishes on the next worker with no completed tool call run again. Give a run a
   * `runId` to resume it, or to get its recorded result, from any process.
   *
   * @example
   * import { createDbosRunner } from 'toolnexus/dbos'
   * const durable = await createDbosRunner({ connectionString: process.env.DATABASE_URL, appVersion: '1' })
   * const client = createClient({ model, durable })
   * const result = await client.run('Refund order 42', { toolkit, runId: 'order-42' })
   */
  durable?: DurableRunner | undefined
  /**
   * Where the client writes what it notices: a tool that strict mode cannot take, sent without it; a tool
   * schema Gemini's subset could not hold in full (`genai`), simplified. The toolkit that holds the tool
   * hears it too, through its own `logger`.
   *
   * @default the toolkit's logger only (warnings to `console.warn`, unless the toolkit was given one)
   * @example
   * const warnings: string[] = []
   * createClient({ model, strict: true, logger: { warn: (message) => warnings.push(message) } })
   */
  logger?: Logger
}

/** A client over an AI SDK `LanguageModel`. */
export interface AISDKClientOptions extends ClientOptions<ModelMessage> {
  /** Any AI SDK language model (spec v2, v3 or v4), or a model id resolved like the AI SDK does. */
  model: LanguageModel
  genai?: undefined
  /**
   * Declare every tool in strict mode (OpenAI Structured Outputs): each schema rewritten into the form
   * strict mode accepts, the model's `null` for an optional argument read as absent. A tool strict mode
   * cannot take is declared without it, with a warning.
   *
   * @default false
   * @example
   * createClient({ model: openai('gpt-5-mini'), strict: true })
   */
  strict?: boolean
}

/** A client over the native `@google/genai` SDK. */
export interface GenAIClientOptions extends ClientOptions<GenAIMessage> {
  /** A `new GoogleGenAI({ apiKey })` instance. */
  genai: GenAIClient
  /** The Gemini model id, like `'gemini-2.5-flash'`. */
  model: string
  /**
   * Generation settings sent with every call (`temperature`, `thinkingConfig`, `safetySettings`, …).
   * `tools`, `systemInstruction` and `abortSignal` are the loop's own.
   *
   * @example
   * createClient({ genai, model: 'gemini-2.5-flash', config: { temperature: 0, thinkingConfig: { thinkingBudget: 0 } } })
   */
  config?: GenAIGenerationConfig
  /**
   * How tool schemas are sent: `'parameters'` (lowered into Gemini's Schema subset) or `'json'` (each JSON
   * Schema unchanged, as `parametersJsonSchema`, on Gemini 2.5+ and Vertex AI).
   *
   * @default 'parameters'
   * @example
   * createClient({ genai, model: 'gemini-2.5-flash', schema: 'json' })
   */
  schema?: 'parameters' | 'json'
}

/** What `ask` takes: the conversation id, plus what `run` takes except `history` (the store holds it). */
export interface AskOptions<Message> extends Omit<RunOptions<Message>, 'history'> {
  /** The conversation to continue; its messages are loaded from and saved to the client's store. */
  id: string
  /**
   * Answers to the conversation's waiting calls: with no prompt, `ask` resumes the run the store keeps
   * suspended under `id` (on any instance sharing the store). A prompt instead leaves those calls unrun.
   */
  approvals?: ApprovalResponse[]
}
