import type { LanguageModel, ModelMessage } from 'ai'
import { notStrictWarning, strictCached } from '../adapters/to-openai.js'
import { warnAboutSchema } from '../adapters/warn-about-schema.js'
import { ConfigError } from '../errors.js'
import { generateCallId, uniqueCallId } from '../loop/call-ids.js'
import { decodeToolInput } from '../loop/decode-tool-input.js'
import { retryAfterFromHeaders } from '../loop/retry.js'
import type {
  ModelToolCall,
  ModelTurn,
  RetryAdvice,
  Transport,
  TransportStreamPart,
} from '../loop/transport.js'
import { geminiToolName } from '../tool/names.js'
import type { Tool, ToolResult } from '../tool/types.js'
import { convertToLanguageModelPrompt } from './convert-to-language-model-prompt.js'
import { ownNamesByGeminiName, sendsNamesToGemini } from './gemini-tool-names.js'
import type {
  ProviderOptions,
  SpecCallOptions,
  SpecContentPart,
  SpecFunctionTool,
  SpecLanguageModel,
  SpecMessage,
  SpecProviderTool,
  SpecStreamPart,
  SpecStreamResult,
} from './language-model-spec.js'
import { mapGenAIProviderName } from './map-gen-ai-provider-name.js'
import { normalizeFinishReason, normalizeUsage } from './normalize-model-result.js'
import { takesImagesInToolResults, toolResultOutput } from './tool-result-media.js'

type AssistantPart = Exclude<Extract<ModelMessage, { role: 'assistant' }>['content'], string>[number]

const SPEC_VERSIONS = new Set(['v2', 'v3', 'v4'])
// The AI SDK's own rule: these client errors may succeed on a second try, every other 4xx never will.
const RETRYABLE_CLIENT_STATUS = new Set([408, 409, 429])

/**
 * A `LanguageModel` object checked against the specification, or a model id resolved the way the AI SDK
 * resolves it: `globalThis.AI_SDK_DEFAULT_PROVIDER`, else the AI Gateway from `ai`.
 *
 * @example
 * const model = await resolveLanguageModel('openai/gpt-5-mini') // through the gateway
 */
export function resolveLanguageModel(model: LanguageModel): SpecLanguageModel | Promise<SpecLanguageModel> {
  if (typeof model === 'string') {
    if (model.trim() === '') {
      throw new ConfigError(
        '`model` is an empty string: pass a model id like "openai/gpt-5-mini" or a model object.',
        { field: 'model' },
      )
    }
    return resolveModelId(model)
  }
  return checkLanguageModel(model)
}

async function resolveModelId(id: string): Promise<SpecLanguageModel> {
  const global = globalThis as { AI_SDK_DEFAULT_PROVIDER?: { languageModel(id: string): unknown } }
  // Loaded on demand: only a string id needs `ai` at run time, and it is a heavy import.
  const provider = global.AI_SDK_DEFAULT_PROVIDER ?? (await import('ai')).gateway
  return checkLanguageModel(provider.languageModel(id))
}

/**
 * A `LanguageModel` object checked against the specification: a wrong value fails here, with what to change.
 *
 * @example
 * const model = checkLanguageModel(openai("gpt-5-mini"))
 */
export function checkLanguageModel(model: unknown): SpecLanguageModel {
  const candidate = model as Partial<SpecLanguageModel> | null
  if (typeof candidate !== 'object' || candidate === null || typeof candidate.doGenerate !== 'function') {
    throw new ConfigError(
      '`model` must be an AI SDK LanguageModel (like `openai("gpt-5-mini")`) or a model id string.',
      { field: 'model' },
    )
  }
  if (!SPEC_VERSIONS.has(String(candidate.specificationVersion))) {
    throw new ConfigError(
      `\`model\` implements LanguageModel specification ${String(candidate.specificationVersion)}; toolnexus needs v2, v3 or v4. Upgrade the provider package (for example @ai-sdk/openai) to a current major.`,
      { field: 'model' },
    )
  }
  return candidate as SpecLanguageModel
}

/**
 * The loop's transport over an AI SDK `LanguageModel`: calls `doGenerate` / `doStream` directly, speaks
 * AI SDK `ModelMessage`s, and normalizes the v2, v3 and v4 result shapes.
 *
 * @example
 * const transport = createAISDKTransport({ model: openai('gpt-5-mini') })
 * const turn = await transport.generate({
 *   messages: [transport.userMessage('Hi')], tools: [], system: undefined, signal: undefined, memo: new Map(),
 * })
 */
export function createAISDKTransport(options: {
  model: SpecLanguageModel
  /** Declare every tool in strict mode, its schema in the form strict mode accepts. @default false */
  strict?: boolean
}): Transport<ModelMessage> {
  return new AISDKTransport(options.model, options.strict === true)
}

class AISDKTransport implements Transport<ModelMessage> {
  readonly #model: SpecLanguageModel
  readonly #declarations = new WeakMap<readonly Tool[], SpecFunctionTool[]>()
  readonly #deferredDeclarations = new WeakMap<readonly Tool[], Array<SpecFunctionTool | SpecProviderTool>>()
  readonly #toolSearch: NativeToolSearch | undefined
  #description: Transport<ModelMessage>['model'] | undefined

  readonly #takesImages: boolean

  readonly #strict: boolean

  // Gemini refuses some names other providers take (`1password_get_item`): over a Google provider a tool is
  // declared under the name Gemini takes, and the model's calls come back under the tool's own name.
  readonly #gemini: boolean

  constructor(model: SpecLanguageModel, strict: boolean) {
    this.#model = model
    this.#strict = strict
    this.#gemini = typeof model.provider === 'string' && sendsNamesToGemini(model.provider)
    this.#takesImages = typeof model.provider === 'string' && takesImagesInToolResults(model.provider)
    this.#toolSearch = nativeToolSearchOf(model)
  }

  get nativeToolSearch(): boolean {
    return this.#toolSearch !== undefined
  }

  get model(): Transport<ModelMessage>['model'] {
    this.#description ??= {
      provider: mapGenAIProviderName(String(this.#model.provider)),
      id: String(this.#model.modelId),
    }
    return this.#description
  }

  userMessage(prompt: string): ModelMessage {
    return { role: 'user', content: prompt }
  }

  async generate(
    request: Parameters<Transport<ModelMessage>['generate']>[0],
  ): Promise<ModelTurn<ModelMessage>> {
    const result = await this.#model.doGenerate(this.#callOptions(request))
    const turn = new TurnBuilder(this.#ownNames(request.tools))
    for (const part of result.content) turn.add(part)
    return turn.finish({
      usage: normalizeUsage(result.usage),
      finishReason: normalizeFinishReason(result.finishReason),
      response: result,
      metadata: result.response as { id?: unknown; modelId?: unknown } | undefined,
    })
  }

  async *stream(
    request: Parameters<Transport<ModelMessage>['stream']>[0],
  ): AsyncGenerator<TransportStreamPart<ModelMessage>> {
    const result = await this.#model.doStream(this.#callOptions(request))
    return yield* readModelStream(result, undefined, this.#ownNames(request.tools))
  }

  #ownNames(tools: readonly Tool[]): ReadonlyMap<string, string> | undefined {
    return this.#gemini ? ownNamesByGeminiName(tools) : undefined
  }

  toolResultsMessages(results: ReadonlyArray<{ call: ModelToolCall; result: ToolResult }>): ModelMessage[] {
    return [
      {
        role: 'tool',
        content: results.map(({ call, result }) => ({
          type: 'tool-result' as const,
          toolCallId: call.id,
          toolName: call.name,
          output: toolResultOutput(result, this.#takesImages),
        })),
      },
    ]
  }

  classifyError(error: unknown): RetryAdvice {
    return classifyAISDKError(error)
  }

  #callOptions(request: Parameters<Transport<ModelMessage>['generate']>[0]): SpecCallOptions {
    const prompt = convertToLanguageModelPrompt({
      messages: request.messages,
      version: this.#model.specificationVersion,
      // A transcript grows by a few messages per turn: each message is converted once per run.
      cache: request.memo as Map<ModelMessage, SpecMessage | null>,
      ...(this.#gemini ? { toolName: geminiToolName } : {}),
    })
    if (request.system !== undefined) prompt.unshift({ role: 'system', content: request.system })
    const options: SpecCallOptions =
      request.signal === undefined ? { prompt } : { prompt, abortSignal: request.signal }
    if (request.tools.length > 0) {
      options.tools =
        request.deferred !== undefined && this.#toolSearch !== undefined
          ? this.#deferredToolDeclarations(request.tools, request.deferred, this.#toolSearch)
          : this.#toolDeclarations(request.tools)
      options.toolChoice = { type: 'auto' }
    }
    return options
  }

  // Every tool, the deferred ones marked so, then the provider's tool search tool.
  #deferredToolDeclarations(
    tools: readonly Tool[],
    deferred: ReadonlySet<string>,
    search: NativeToolSearch,
  ): Array<SpecFunctionTool | SpecProviderTool> {
    let declarations = this.#deferredDeclarations.get(tools)
    if (declarations === undefined) {
      declarations = [
        ...this.#toolDeclarations(tools).map((declaration) =>
          deferred.has(declaration.name)
            ? { ...declaration, providerOptions: { [search.options]: { deferLoading: true } } }
            : declaration,
        ),
        {
          type: this.#model.specificationVersion === 'v2' ? 'provider-defined' : 'provider',
          id: search.id,
          name: search.name,
          args: {},
        },
      ]
      this.#deferredDeclarations.set(tools, declarations)
    }
    return declarations
  }

  #toolDeclarations(tools: readonly Tool[]): SpecFunctionTool[] {
    let declarations = this.#declarations.get(tools)
    if (declarations === undefined) {
      declarations = tools.map((tool) =>
        this.#strict
          ? strictDeclaration(tool, this.#gemini ? geminiToolName(tool.name) : tool.name)
          : {
              type: 'function',
              name: this.#gemini ? geminiToolName(tool.name) : tool.name,
              description: tool.description,
              inputSchema: tool.inputSchema,
            },
      )
      this.#declarations.set(tools, declarations)
    }
    return declarations
  }
}

/** A provider's own tool search: the provider tool to declare and where a tool's `deferLoading` goes. */
interface NativeToolSearch {
  id: string
  name: string
  options: string
}

/**
 * The tool search a model's provider runs itself, by the provider name its package gives: Anthropic's
 * Messages API (the BM25 tool search tool) and OpenAI's Responses API (`tool_search`).
 */
function nativeToolSearchOf(model: SpecLanguageModel): NativeToolSearch | undefined {
  const provider = String(model.provider)
  if (provider === 'anthropic.messages') {
    return { id: 'anthropic.tool_search_bm25_20251119', name: 'tool_search', options: 'anthropic' }
  }
  if (provider === 'openai.responses')
    return { id: 'openai.tool_search', name: 'tool_search', options: 'openai' }
  return undefined
}

// A tool in strict mode: its schema as strict mode takes it, or as it is (and `strict: false`, with a warning)
// when strict mode cannot say it.
function strictDeclaration(tool: Tool, name: string): SpecFunctionTool {
  const conversion = strictCached(tool.inputSchema)
  if (conversion.kind === 'refused') {
    warnAboutSchema(tool.inputSchema, notStrictWarning(tool.name, conversion.reasons))
    return {
      type: 'function',
      name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      strict: false,
    }
  }
  return {
    type: 'function',
    name,
    description: tool.description,
    inputSchema: structuredClone(conversion.schema),
    strict: true,
  }
}

export function classifyAISDKError(error: unknown): RetryAdvice {
  // Duck-typed rather than `APICallError.isInstance`, so any major of @ai-sdk/provider is recognized.
  if (typeof error !== 'object' || error === null) return { retryable: false }
  const { isRetryable, statusCode, responseHeaders } = error as {
    isRetryable?: unknown
    statusCode?: unknown
    responseHeaders?: unknown
  }
  const status = typeof statusCode === 'number' ? { statusCode } : {}
  if (typeof isRetryable !== 'boolean') return { retryable: false, ...status }
  const clientError =
    typeof statusCode === 'number' &&
    statusCode >= 400 &&
    statusCode < 500 &&
    !RETRYABLE_CLIENT_STATUS.has(statusCode)
  const retryAfterMs = retryAfterFromHeaders(responseHeaders)
  return {
    retryable: isRetryable && !clientError,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...status,
  }
}

/**
 * Reads one `doStream` result into the loop's stream parts: text deltas as they come, then the whole
 * turn. `relay`, when given, sees every stream part first, as the provider sent it (the provider form
 * passes them on to its own caller); `ownNames` gives calls made under a declared name their tool's own.
 *
 * @example
 * for await (const part of readModelStream(await model.doStream(options))) {
 *   if (part.type === 'turn') console.log(part.turn.toolCalls)
 * }
 */
export async function* readModelStream(
  result: SpecStreamResult,
  relay?: (part: SpecStreamPart) => void,
  ownNames?: ReadonlyMap<string, string>,
): AsyncGenerator<TransportStreamPart<ModelMessage>> {
  const reader = result.stream.getReader()
  const turn = new TurnBuilder(ownNames)
  const open = new Map<string, SpecContentPart>()
  let finish: SpecStreamPart | undefined
  let metadata: SpecStreamPart | undefined
  let done = false
  try {
    while (true) {
      const next = await reader.read()
      if (next.done) break
      const part = next.value
      relay?.(part)
      switch (part.type) {
        case 'text-start':
        case 'reasoning-start':
          open.set(blockKey(part), turn.openBlock(part.type === 'text-start' ? 'text' : 'reasoning'))
          turn.mergeMetadata(open.get(blockKey(part)), part.providerMetadata)
          break
        case 'text-delta':
        case 'reasoning-delta': {
          const key = blockKey(part)
          let block = open.get(key)
          if (block === undefined) {
            block = turn.openBlock(part.type === 'text-delta' ? 'text' : 'reasoning')
            open.set(key, block)
          }
          const delta = part.delta ?? ''
          block.text = (block.text ?? '') + delta
          turn.mergeMetadata(block, part.providerMetadata)
          if (part.type === 'text-delta' && delta !== '') yield { type: 'text-delta', text: delta }
          break
        }
        case 'text-end':
        case 'reasoning-end':
          turn.mergeMetadata(open.get(blockKey(part)), part.providerMetadata)
          open.delete(blockKey(part))
          break
        case 'tool-call':
        case 'tool-result':
          turn.add(part as SpecContentPart)
          break
        case 'finish':
          finish = part
          break
        case 'response-metadata':
          metadata = part
          break
        case 'error':
          throw part.error
        default:
        // Sources, files, raw chunks, metadata and tool-input previews add nothing the loop needs.
      }
    }
    done = true
  } finally {
    // Stop the provider's stream when the loop leaves early (abort, error): it would run on otherwise.
    if (!done) reader.cancel().catch(() => {})
    reader.releaseLock()
  }
  const usage = normalizeUsage(finish?.usage)
  const finishReason = normalizeFinishReason(finish?.finishReason)
  yield {
    type: 'turn',
    turn: turn.finish({
      usage,
      finishReason,
      response: { ...result, stream: undefined, content: turn.content, usage: finish?.usage, finishReason },
      metadata,
    }),
  }
}

function blockKey(part: SpecStreamPart): string {
  return `${part.type.startsWith('text') ? 'text' : 'reasoning'}:${part.id ?? ''}`
}

/** Collects one model turn's parts into the loop's `ModelTurn` and the assistant `ModelMessage`. */
export class TurnBuilder {
  /** The spec content, in order, for the `afterModel` hook. */
  readonly content: SpecContentPart[] = []
  readonly #toolCalls: ModelToolCall[] = []
  readonly #ids = new Set<string>()
  // The tools' own names by the names they were declared under, where those differ.
  readonly #ownNames: ReadonlyMap<string, string> | undefined

  constructor(ownNames?: ReadonlyMap<string, string>) {
    this.#ownNames = ownNames === undefined || ownNames.size === 0 ? undefined : ownNames
  }

  add(part: SpecContentPart): void {
    // A tool the provider ran itself (its own tool search) is not ours to answer, but its call and result
    // go back in the transcript: the provider reads them on the next turn.
    if (part.type === 'tool-call' && part.providerExecuted === true) {
      this.content.push(part)
      return
    }
    if (part.type === 'tool-result') {
      this.content.push(part)
      return
    }
    if (part.type === 'text' || part.type === 'reasoning' || part.type === 'tool-call')
      this.content.push(part)
    if (part.type !== 'tool-call') return
    const id =
      typeof part.toolCallId === 'string' && part.toolCallId !== '' ? part.toolCallId : generateCallId()
    const name = typeof part.toolName === 'string' ? part.toolName : ''
    this.#toolCalls.push({
      // Repeated ids would give one id several answers; each call gets its own, answered once.
      id: uniqueCallId(id, this.#ids),
      name: this.#ownNames?.get(name) ?? name,
      ...decodeToolInput(part.input),
    })
  }

  openBlock(type: 'text' | 'reasoning'): SpecContentPart {
    const block: SpecContentPart = { type, text: '' }
    this.content.push(block)
    return block
  }

  mergeMetadata(block: SpecContentPart | undefined, metadata: ProviderOptions | undefined): void {
    if (block === undefined || metadata === undefined) return
    block.providerMetadata = { ...block.providerMetadata, ...metadata }
  }

  finish(options: {
    usage: ModelTurn<ModelMessage>['usage']
    finishReason: string
    response: unknown
    /** Where the provider said which response and model this was (`response` of a result, a stream's `response-metadata`). */
    metadata: { id?: unknown; modelId?: unknown } | undefined
  }): ModelTurn<ModelMessage> {
    let text = ''
    const parts: AssistantPart[] = []
    let call = 0
    for (const part of this.content) {
      let assistantPart:
        | Extract<AssistantPart, { type: 'text' | 'reasoning' | 'tool-call' | 'tool-result' }>
        | undefined
      if (part.type === 'tool-result') {
        assistantPart = {
          type: 'tool-result',
          toolCallId: String(part.toolCallId),
          toolName: String(part.toolName),
          output: { type: 'json', value: (part.result ?? null) as never },
        }
      } else if (part.type === 'tool-call' && part.providerExecuted === true) {
        assistantPart = {
          type: 'tool-call',
          toolCallId: String(part.toolCallId),
          toolName: String(part.toolName),
          input: decodeToolInput(part.input).input,
          providerExecuted: true,
        }
      } else if (part.type === 'text') {
        text += part.text ?? ''
        if (part.text) assistantPart = { type: 'text', text: part.text }
      } else if (part.type === 'reasoning') {
        // Reasoning is kept even when empty: some providers sign it (metadata) and need it back.
        assistantPart = { type: 'reasoning', text: part.text ?? '' }
      } else {
        const toolCall = this.#toolCalls[call++]
        if (toolCall === undefined) continue
        assistantPart = {
          type: 'tool-call',
          toolCallId: toolCall.id,
          toolName: toolCall.name,
          // Providers need an object here (Anthropic, Gemini reject anything else); a call whose
          // arguments were not a JSON object is answered with an error that quotes what it sent.
          input: typeof toolCall.input === 'string' ? {} : toolCall.input,
        }
      }
      if (assistantPart === undefined) continue
      if (part.providerMetadata !== undefined) assistantPart.providerOptions = part.providerMetadata
      parts.push(assistantPart)
    }
    const turn: ModelTurn<ModelMessage> = {
      text,
      toolCalls: this.#toolCalls,
      usage: options.usage,
      finishReason: options.finishReason,
      message: parts.length === 0 ? undefined : { role: 'assistant', content: parts },
      response: options.response,
    }
    const id = options.metadata?.id
    const modelId = options.metadata?.modelId
    if (typeof id === 'string') turn.responseId = id
    if (typeof modelId === 'string') turn.responseModel = modelId
    return turn
  }
}
