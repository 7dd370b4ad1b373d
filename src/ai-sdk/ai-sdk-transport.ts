import type { ModelMessage } from 'ai'
import type {
  ModelToolCall,
  ModelTurn,
  RetryAdvice,
  Transport,
  TransportMemo,
  TransportStreamPart,
} from '../contracts/transport.js'
import type { Logger } from '../shared/logger.js'
import { ownNamesByGeminiName, sendsNamesToGemini } from '../tool/gemini-tool-names.js'
import { geminiToolName } from '../tool/names.js'
import type { Tool, ToolResult } from '../tool/types.js'
import { classifyAISDKError } from './classify-ai-sdk-error.js'
import { ConvertedPrompt, convertToLanguageModelPrompt } from './convert-to-language-model-prompt.js'
import { generatedTurn } from './generated-turn.js'
import type {
  SpecCallOptions,
  SpecFunctionTool,
  SpecGenerateResult,
  SpecLanguageModel,
  SpecProviderTool,
  SpecToolChoice,
} from './language-model-spec.js'
import { mapGenAIProviderName } from './map-gen-ai-provider-name.js'
import { type NativeToolSearch, nativeToolSearchOf, withNativeToolSearch } from './native-tool-search.js'
import { readModelStream } from './read-model-stream.js'
import { ToolDeclarations } from './tool-declarations.js'
import { takesImagesInToolResults, toolResultOutput } from './tool-result-media.js'
import { toolResultsMessage } from './tool-results-message.js'

/**
 * The loop's transport over an AI SDK `LanguageModel`: calls `doGenerate` / `doStream` directly, speaks
 * AI SDK `ModelMessage`s, and normalizes the v2, v3 and v4 result shapes.
 *
 * @example
 * const transport = createAISDKTransport({ model: openai('gpt-5-mini') })
 * const turn = await transport.generate({
 *   messages: [transport.userMessage('Hi')], tools: [], system: undefined, signal: undefined, memo: { value: undefined },
 * })
 */
export function createAISDKTransport(options: {
  model: SpecLanguageModel
  /** Declare every tool in strict mode, its schema in the form strict mode accepts. @default false */
  strict?: boolean
  /** Also hears the warnings about tool schemas (besides the toolkit's logger). @default none */
  logger?: Logger
}): Transport<ModelMessage> {
  return new AISDKTransport(options.model, options.strict === true, options.logger)
}

class AISDKTransport implements Transport<ModelMessage> {
  readonly #model: SpecLanguageModel
  readonly #declarations: ToolDeclarations
  readonly #deferredDeclarations = new WeakMap<readonly Tool[], Array<SpecFunctionTool | SpecProviderTool>>()
  readonly #toolSearch: NativeToolSearch | undefined
  #description: Transport<ModelMessage>['model'] | undefined

  readonly #takesImages: boolean

  // Gemini refuses some names other providers take (`1password_get_item`): over a Google provider a tool is
  // declared under the name Gemini takes, and the model's calls come back under the tool's own name.
  readonly #gemini: boolean

  constructor(model: SpecLanguageModel, strict: boolean, logger: Logger | undefined) {
    this.#model = model
    this.#gemini = typeof model.provider === 'string' && sendsNamesToGemini(model.provider)
    this.#declarations = new ToolDeclarations({
      strict,
      ...(this.#gemini ? { name: geminiToolName } : {}),
      ...(logger !== undefined && { logger }),
    })
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
    return this.turnOf(await this.send(request), request)
  }

  // The loop awaits the model's own promise: no frame of the transport's around `doGenerate`.
  send(request: Parameters<Transport<ModelMessage>['generate']>[0]): PromiseLike<SpecGenerateResult> {
    return this.#model.doGenerate(this.#callOptions(request))
  }

  turnOf(
    result: unknown,
    request: Parameters<Transport<ModelMessage>['generate']>[0],
  ): ModelTurn<ModelMessage> {
    return generatedTurn(result as SpecGenerateResult, this.#ownNames(request.tools))
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
    return [toolResultsMessage(results, this.#toolResultOutput)]
  }

  // Made once: every turn's answers are rendered by it.
  readonly #toolResultOutput = (result: ToolResult) => toolResultOutput(result, this.#takesImages)

  classifyError(error: unknown): RetryAdvice {
    return classifyAISDKError(error)
  }

  #callOptions(request: Parameters<Transport<ModelMessage>['generate']>[0]): SpecCallOptions {
    const prompt = convertToLanguageModelPrompt({
      messages: request.messages,
      version: this.#model.specificationVersion,
      // A transcript grows by a few messages per turn: each message is converted once per run.
      cache: convertedPromptOf(request.memo),
      system: request.system,
      toolName: this.#gemini ? geminiToolName : undefined,
    })
    const { signal } = request
    if (request.tools.length === 0) return signal === undefined ? { prompt } : { prompt, abortSignal: signal }
    const tools =
      request.deferred !== undefined && this.#toolSearch !== undefined
        ? this.#deferredToolDeclarations(request.tools, request.deferred, this.#toolSearch)
        : this.#declarations.of(request.tools)
    // Made whole, with no field added afterwards.
    return signal === undefined
      ? { prompt, tools, toolChoice: AUTO }
      : { prompt, abortSignal: signal, tools, toolChoice: AUTO }
  }

  // Worked out once per tools list, as the declarations are.
  #deferredToolDeclarations(
    tools: readonly Tool[],
    deferred: ReadonlySet<string>,
    search: NativeToolSearch,
  ): Array<SpecFunctionTool | SpecProviderTool> {
    let declarations = this.#deferredDeclarations.get(tools)
    if (declarations === undefined) {
      declarations = withNativeToolSearch({
        declarations: this.#declarations.of(tools),
        deferred,
        search,
        version: this.#model.specificationVersion,
      })
      this.#deferredDeclarations.set(tools, declarations)
    }
    return declarations
  }
}

// One for every call: providers read the choice, they do not keep or change it.
const AUTO: SpecToolChoice = Object.freeze({ type: 'auto' })

/** What the run's earlier calls converted of its transcript: kept in its memo from the first call on. */
function convertedPromptOf(memo: TransportMemo): ConvertedPrompt {
  if (memo.value === undefined) memo.value = new ConvertedPrompt()
  return memo.value as ConvertedPrompt
}
