import type { LanguageModel, ModelMessage } from 'ai'
import { createAISDKTransport, resolveLanguageModel } from '../ai-sdk/ai-sdk-transport.js'
import { callStore } from '../conversation/call-store.js'
import { claimStoredRun } from '../conversation/claim-stored-run.js'
import { saveTurn } from '../conversation/save-turn.js'
import type { DurableRunner, DurableSteps } from '../durable/durable-runner.js'
import { ConfigError } from '../errors.js'
import type {
  GenAIClientLike,
  GenAIGenerationConfig as SDKGenerationConfig,
} from '../genai/genai-transport.js'
import type { GenAIClient, GenAIContent, GenAIGenerationConfig } from '../genai/genai-types.js'
import { type LoopSettings, runLoop } from '../loop/run-loop.js'
import { createRunStream, type RunStream } from '../loop/run-stream.js'
import { type LoopOptions, readSettings } from '../loop/settings.js'
import type { Transport } from '../loop/transport.js'
import type {
  ApprovalResponse,
  MessageFormat,
  ResumeOptions,
  RunEvent,
  RunOptions,
  RunResult,
  RunState,
} from '../loop/types.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import type { ConversationStore } from '../stores/conversation-store.js'
import { InMemoryConversationStore } from '../stores/in-memory-conversation-store.js'
import type { Toolkit } from '../toolkit/create-toolkit.js'
import {
  checkRunId,
  type DurableListener,
  type DurablePayload,
  readDurable,
  runDurably,
  workerName,
} from './durable-run.js'
import { toGenAIUserContent, toModelUserMessage, type UserContentPart } from './user-message.js'

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

/**
 * One tool-calling client over a model: `run` to completion, `stream` events as they happen, or `ask`
 * with memory kept by conversation id.
 */
export interface Client<Message> {
  /** Runs the loop to completion with the non-streaming model call. Rejects with `AbortError` on abort. */
  run(prompt: string | Message[], options?: RunOptions<Message>): Promise<RunResult<Message>>
  /** Runs the loop with the streaming model call, yielding events (`finish` last). */
  stream(prompt: string | Message[], options?: RunOptions<Message>): RunStream<Message>
  /**
   * `run` that continues the conversation `id` from the store and saves the turn back. Turns on one id in
   * one client run one after another; turns on one id in different processes may run at the same time:
   * the save is a compare-and-set, and a turn that finds the conversation changed meanwhile is appended
   * after what is stored now (it ran without seeing the other turn; nothing runs twice and no turn is
   * lost). `result.messages` is the transcript as saved. A store that fails rejects with `StoreError`.
   */
  ask(prompt: string | undefined, options: AskOptions<Message>): Promise<RunResult<Message>>
  /**
   * Goes on with a suspended run: approved calls run, denied ones answer the model with an error saying
   * the user declined, and the loop continues; calls left unanswered keep it suspended. The run is
   * claimed first (in `claims`, else the process's guard): it is answered once. Rejects with an
   * `ApprovalError`, having run nothing, when the state or an answer was altered, replayed, expired, or is
   * for another call.
   */
  resume(state: RunState | string, options: ResumeOptions<Message>): Promise<RunResult<Message>>
  /** `resume` with the streaming model call, yielding events like `stream`. */
  resumeStream(state: RunState | string, options: ResumeOptions<Message>): RunStream<Message>
  /** The store `ask` uses. */
  readonly store: ConversationStore<Message>
  /**
   * A person's message in this client's message type, from text and files: an AI SDK `ModelMessage`, or
   * a Gemini `Content` (text as `{ text }`, a `data:` URL as `inlineData`, an `http(s)` URL as
   * `fileData`). Only the parts' text, media type, URL and file name are kept. `createChatHandler`
   * builds each browser message with it.
   *
   * @example
   * const question = await client.userMessage([
   *   { type: 'text', text: 'What is in this picture?' },
   *   { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo…' },
   * ])
   * const result = await client.run([question], { toolkit })
   */
  userMessage(content: string | readonly UserContentPart[]): Promise<Message>
  /**
   * The message type this client speaks: `'ai-sdk'` (AI SDK `ModelMessage`s) or `'genai'` (Gemini
   * `Content`s). `createChatHandler` signs answers for this type only, so that one `secret` can serve
   * routes of both kinds without an answer of one being taken by the other.
   */
  readonly messageFormat: MessageFormat
}

/**
 * Creates the tool-calling client. Pass any AI SDK model — swapping providers is one line — or a
 * `@google/genai` client and a Gemini model id.
 *
 * @example
 * import { openai } from '@ai-sdk/openai'
 * const client = createClient({ model: openai('gpt-5-mini'), system: 'You are terse.' })
 * // const client = createClient({ model: anthropic('claude-sonnet-4-5') })
 * // const client = createClient({ genai: new GoogleGenAI({ apiKey }), model: 'gemini-2.5-flash' })
 * const result = await client.run('Weather in Chennai?', { toolkit })
 * console.log(result.text, result.toolCalls, result.usage)
 */
export function createClient(options: AISDKClientOptions): Client<ModelMessage>
export function createClient(options: GenAIClientOptions): Client<GenAIMessage>
export function createClient(
  options: AISDKClientOptions | GenAIClientOptions,
): Client<ModelMessage> | Client<GenAIMessage> {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigError(
      'createClient needs an options object, like createClient({ model: openai("gpt-5-mini") }).',
    )
  }
  if (options.genai !== undefined) {
    const { genai, model, config, schema } = options
    checkGenAI(genai, model)
    // The public option types are structural copies of the SDK's (so that no declaration imports the
    // optional @google/genai); the values are the SDK's own, which the transport types by the SDK.
    const sdkGenAI = genai as unknown as GenAIClientLike
    const sdkConfig = config as SDKGenerationConfig | undefined
    const transport = import('../genai/genai-transport.js').then(
      (module) =>
        module.createGenAITransport({
          genai: sdkGenAI,
          model,
          ...(sdkConfig === undefined ? {} : { config: sdkConfig }),
          ...(schema === undefined ? {} : { schema }),
        }) as unknown as Transport<GenAIContent>,
    )
    // Surfaced on the first run; here it would be an unhandled rejection.
    transport.catch(() => {})
    return new LoopClient(transport, options, 'genai', async (parts) => toGenAIUserContent(parts))
  }
  if (options.model === undefined || options.model === null) {
    throw new ConfigError(
      '`model` is missing: pass an AI SDK model like openai("gpt-5-mini"), a model id string like "openai/gpt-5-mini", or { genai, model: "gemini-2.5-flash" } for @google/genai.',
      { field: 'model' },
    )
  }
  const model = resolveLanguageModel(options.model)
  const transport =
    model instanceof Promise
      ? model.then((resolved) => createAISDKTransport({ model: resolved, strict: options.strict === true }))
      : createAISDKTransport({ model, strict: options.strict === true })
  if (transport instanceof Promise) transport.catch(() => {})
  return new LoopClient<ModelMessage>(transport, options, 'ai-sdk', toModelUserMessage)
}

function checkGenAI(genai: unknown, model: unknown): void {
  const models = (genai as { models?: { generateContent?: unknown; generateContentStream?: unknown } } | null)
    ?.models
  if (typeof models?.generateContent !== 'function' || typeof models.generateContentStream !== 'function') {
    throw new ConfigError(
      '`genai` must be a GoogleGenAI instance from @google/genai: new GoogleGenAI({ apiKey }).',
      { field: 'genai' },
    )
  }
  if (typeof model !== 'string' || model.trim() === '') {
    throw new ConfigError('With `genai`, `model` must be a Gemini model id string, like "gemini-2.5-flash".')
  }
}

class LoopClient<Message> implements Client<Message> {
  readonly store: ConversationStore<Message>
  readonly #transport: Transport<Message> | Promise<Transport<Message>>
  readonly #settings: LoopSettings<Message>
  // One ask at a time per conversation in this client, so that a turn sees the one before it. Across
  // processes the store's compare-and-set keeps every turn (see saveTurn).
  readonly #conversations = new Map<string, Promise<unknown>>()
  readonly #userMessage: (parts: readonly UserContentPart[]) => Promise<Message>
  readonly messageFormat: MessageFormat
  readonly #durable: DurableRunner | undefined
  // The callers of durable runs this process runs, by run id: they get the run's events.
  readonly #listeners = new Map<string, DurableListener<Message>>()

  constructor(
    transport: Transport<Message> | Promise<Transport<Message>>,
    options: ClientOptions<Message>,
    kind: MessageFormat,
    userMessage: (parts: readonly UserContentPart[]) => Promise<Message>,
  ) {
    this.#transport = transport
    this.#userMessage = userMessage
    this.messageFormat = kind
    const settings = readSettings(options, kind)
    this.#settings = settings
    this.store = readStore(options.store)
    this.#durable = readDurable(options.durable)
    // Once loaded, runs use it without awaiting.
    const telemetry = settings.telemetry
    if (isPromiseLike(telemetry)) {
      telemetry.then(
        (loaded) => {
          settings.telemetry = loaded
        },
        () => {},
      )
    }
  }

  userMessage(content: string | readonly UserContentPart[]): Promise<Message> {
    return this.#userMessage(typeof content === 'string' ? [{ type: 'text', text: content }] : content)
  }

  async run(prompt: string | Message[], options: RunOptions<Message> = {}): Promise<RunResult<Message>> {
    const events = this.#start(prompt, options, 'generate', undefined)
    while (true) {
      const next = await events.next()
      if (next.done === true) return next.value
    }
  }

  stream(prompt: string | Message[], options: RunOptions<Message> = {}): RunStream<Message> {
    return createRunStream((stop) => this.#start(prompt, options, 'stream', stop))
  }

  async resume(state: RunState | string, options: ResumeOptions<Message>): Promise<RunResult<Message>> {
    const events = this.#resume(state, options, 'generate', undefined)
    while (true) {
      const next = await events.next()
      if (next.done === true) return next.value
    }
  }

  resumeStream(state: RunState | string, options: ResumeOptions<Message>): RunStream<Message> {
    return createRunStream((stop) => this.#resume(state, options, 'stream', stop))
  }

  #resume(
    state: RunState | string,
    options: ResumeOptions<Message>,
    mode: 'generate' | 'stream',
    stop: AbortSignal | undefined,
  ): AsyncGenerator<RunEvent<Message>, RunResult<Message>> {
    if (typeof options !== 'object' || options === null) {
      throw new ConfigError('resume needs options: client.resume(state, { toolkit, approvals: [...] }).')
    }
    checkRunOptions([], options)
    const durable = this.#durable === undefined ? undefined : resumeRunId(state, options.runId)
    if (durable !== undefined) {
      const payload: DurablePayload<Message> = {
        prompt: [],
        history: [],
        system: options.system,
        resume: { state: durable.state, approvals: options.approvals },
      }
      return this.#runDurably(payload, durable.runId, options, mode)
    }
    return runLoop({
      transport: this.#transport,
      settings: this.#settings,
      history: [],
      prompt: [],
      toolkit: options.toolkit,
      system: options.system,
      signal: options.signal,
      ...(stop === undefined ? {} : { stop }),
      mode,
      resume: { state, approvals: options.approvals },
    })
  }

  ask(prompt: string | undefined, options: AskOptions<Message>): Promise<RunResult<Message>> {
    if (typeof options?.id !== 'string' || options.id === '') {
      return Promise.reject(
        new ConfigError('ask needs a conversation id: client.ask(prompt, { id: "user-1", toolkit }).'),
      )
    }
    const { id, approvals, ...runOptions } = options
    if (prompt === undefined && approvals === undefined) {
      return Promise.reject(
        new ConfigError(
          'ask needs a prompt, or approvals to resume the waiting run: client.ask(undefined, { id, approvals }).',
        ),
      )
    }
    const previous = this.#conversations.get(id) ?? Promise.resolve()
    const asked = previous.then(async (): Promise<RunResult<Message>> => {
      if (prompt === undefined) return this.#askResume(id, approvals, runOptions)
      const loaded = await callStore('load', id, () => this.store.load(id))
      // A waiting run's calls are answered "not run" in the stored transcript: a new prompt leaves them so.
      const history = loaded?.messages ?? []
      const result = await this.run(prompt, { ...runOptions, history })
      const turn = result.messages.slice(history.length)
      const messages = await saveTurn({ store: this.store, id, loaded, turn, result })
      return { ...result, messages }
    })
    const settled = asked.then(
      () => {},
      () => {},
    )
    this.#conversations.set(id, settled)
    settled.then(() => {
      if (this.#conversations.get(id) === settled) this.#conversations.delete(id)
    })
    return asked
  }

  /** Resumes the run kept suspended under `id`: claimed once across instances, saved back in place. */
  async #askResume(
    id: string,
    approvals: unknown,
    runOptions: Omit<AskOptions<Message>, 'id' | 'approvals'>,
  ): Promise<RunResult<Message>> {
    const claimed = await claimStoredRun({ store: this.store, id, keys: this.#settings.runState, approvals })
    const result = await this.resume(claimed.state, {
      ...runOptions,
      approvals: approvals as ApprovalResponse[],
    })
    const messages = await claimed.save(result)
    return { ...result, messages }
  }

  #start(
    prompt: string | Message[],
    options: RunOptions<Message>,
    mode: 'generate' | 'stream',
    stop: AbortSignal | undefined,
  ): AsyncGenerator<RunEvent<Message>, RunResult<Message>> {
    checkRunOptions(prompt, options)
    if (this.#durable !== undefined) {
      const runId = options.runId ?? crypto.randomUUID()
      const payload = { prompt, history: options.history ?? [], system: options.system, runId }
      return this.#runDurably(payload, runId, options, mode)
    }
    return runLoop({
      transport: this.#transport,
      settings: this.#settings,
      history: options.history ?? [],
      prompt,
      toolkit: options.toolkit,
      system: options.system,
      signal: options.signal,
      ...(stop === undefined ? {} : { stop }),
      mode,
      runId: options.runId,
    })
  }

  /**
   * A run as a durable run: this client and the run's toolkit serve it; the engine runs it. A stream's
   * consumer that leaves early does not stop it (it finishes and is recorded); `signal` aborts it.
   */
  async *#runDurably(
    payload: DurablePayload<Message>,
    runId: string,
    options: RunOptions<Message>,
    mode: 'generate' | 'stream',
  ): AsyncGenerator<RunEvent<Message>, RunResult<Message>> {
    const runner = this.#durable as DurableRunner
    const transport = await this.#transport
    const { toolkit } = options
    const worker = workerName(this.messageFormat, transport.model.id, toolkit)
    runner.serve(worker, (input, steps) => this.#work(input.runId, input.payload, steps, toolkit))
    return yield* runDurably({
      runner,
      runId,
      worker,
      payload,
      listeners: this.#listeners,
      stream: mode === 'stream',
      signal: options.signal,
    })
  }

  /** The work of a durable run, in whichever process the engine runs it (its caller's, or another). */
  async #work(
    runId: string,
    given: unknown,
    steps: DurableSteps,
    toolkit: Toolkit | undefined,
  ): Promise<RunResult<Message>> {
    const payload = given as DurablePayload<Message>
    const listener = this.#listeners.get(runId)
    const stream = listener?.stream === true
    const events = runLoop({
      transport: this.#transport,
      settings: this.#settings,
      history: payload.history,
      prompt: payload.prompt,
      toolkit,
      system: payload.system,
      signal: listener?.signal,
      mode: stream ? 'stream' : 'generate',
      runId: payload.runId,
      durable: { steps, emit: stream ? listener?.push : undefined },
      ...(payload.resume === undefined ? {} : { resume: payload.resume }),
    })
    while (true) {
      const next = await events.next()
      if (next.done === true) return next.value
      if (stream) listener?.push(next.value)
    }
  }
}

/**
 * The id of the durable run that resumes a suspended state: the run's own id (or the given one) and the
 * state's seal, so that resuming one suspension twice, from any process, is one run — the first answer's.
 * `undefined` for what is not a sealed state (the resume then refuses it as usual).
 */
function resumeRunId(
  state: unknown,
  given: string | undefined,
): { runId: string; state: unknown } | undefined {
  let parsed = state
  if (typeof state === 'string') {
    try {
      parsed = JSON.parse(state)
    } catch {
      return undefined
    }
  }
  const { runId, seal } = (parsed ?? {}) as { runId?: unknown; seal?: unknown }
  if (typeof runId !== 'string' || typeof seal !== 'string') return undefined
  const id = `${given ?? runId}:resume:${seal.slice(-22)}`
  return /^[\x21-\x7e]{1,300}$/.test(id) ? { runId: id, state: parsed } : undefined
}

function checkRunOptions<Message>(prompt: string | Message[], options: RunOptions<Message>): void {
  if (typeof prompt !== 'string' && !Array.isArray(prompt)) {
    throw new ConfigError('The prompt must be a string or an array of messages.')
  }
  if (typeof options !== 'object' || options === null) {
    throw new ConfigError('The run options must be an object, like { toolkit, history, signal }.')
  }
  const { toolkit, history, signal, system } = options
  checkRunId(options.runId)
  if (system !== undefined && typeof system !== 'string') {
    throw new ConfigError('The run option `system` must be a string (a system prompt for this run).', {
      field: 'system',
    })
  }
  if (
    toolkit !== undefined &&
    (typeof toolkit?.tools !== 'function' || typeof toolkit.execute !== 'function')
  ) {
    throw new ConfigError('`toolkit` must be a Toolkit from createToolkit(...).', { field: 'toolkit' })
  }
  if (history !== undefined && !Array.isArray(history)) {
    throw new ConfigError('`history` must be an array of messages, like a previous result.messages.', {
      field: 'history',
    })
  }
  // Checked by shape: a signal from another realm (Next's edge runtime) fails `instanceof`.
  if (signal !== undefined && !isAbortSignalLike(signal)) {
    throw new ConfigError('`signal` must be an AbortSignal, like AbortSignal.timeout(30_000).', {
      field: 'signal',
    })
  }
}

function isAbortSignalLike(value: unknown): value is AbortSignal {
  const candidate = value as Partial<AbortSignal> | null
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.aborted === 'boolean' &&
    typeof candidate.addEventListener === 'function'
  )
}

function readStore<Message>(store: ConversationStore<Message> | undefined): ConversationStore<Message> {
  if (store === undefined) return new InMemoryConversationStore<Message>()
  if (
    typeof store?.load !== 'function' ||
    typeof store.save !== 'function' ||
    typeof store.delete !== 'function'
  ) {
    throw new ConfigError(
      '`store` must have load(id), save(id, record, expectedVersion) and delete(id), like new InMemoryConversationStore() or createRedisStore({ url }) from toolnexus/redis. A store with get(id) and save(id, messages), the form of the other toolnexus ports, goes through fromGetSaveStore(store): it has no compare-and-set, so two instances answering one conversation at the same moment can overwrite the turn of the other.',
      { field: 'store' },
    )
  }
  return store
}
