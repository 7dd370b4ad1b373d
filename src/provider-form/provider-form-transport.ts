import { classifyAISDKError } from '../ai-sdk/classify-ai-sdk-error.js'
import { generatedTurn } from '../ai-sdk/generated-turn.js'
import type {
  ProviderOptions,
  SpecCallOptions,
  SpecContentPart,
  SpecFinishReason,
  SpecFunctionTool,
  SpecLanguageModel,
  SpecMessage,
  SpecProviderTool,
  SpecStreamPart,
  SpecUsage,
} from '../ai-sdk/language-model-spec.js'
import { mapGenAIProviderName } from '../ai-sdk/map-gen-ai-provider-name.js'
import { readModelStream } from '../ai-sdk/read-model-stream.js'
import { ToolDeclarations } from '../ai-sdk/tool-declarations.js'
import {
  takesImagesInToolResults,
  toolResultOutput,
  toSpecToolResultOutput,
} from '../ai-sdk/tool-result-media.js'
import { toolResultsMessage } from '../ai-sdk/tool-results-message.js'
import type {
  ModelToolCall,
  ModelTurn,
  RetryAdvice,
  Transport,
  TransportMemo,
  TransportRequest,
  TransportStreamPart,
} from '../contracts/transport.js'
import type { Logger } from '../shared/logger.js'
import { ownNamesByGeminiName, sendsNamesToGemini } from '../tool/gemini-tool-names.js'
import { geminiToolName } from '../tool/names.js'
import type { Tool, ToolResult } from '../tool/types.js'
import { sentPrompt, withOwnName } from './gemini-names.js'
import { sumSpecUsage } from './sum-spec-usage.js'

/** The call options the AI SDK passed the wrapper: the loop's fields plus settings it passes through. */
export type CallerOptions = SpecCallOptions & { [option: string]: unknown }

/** One inner model call, as the wrapper reports it. */
export interface InnerCall {
  /** The call's content as the provider sent it (generate only). */
  content: SpecContentPart[]
  /** The tool calls the loop read from it, in order. */
  toolCalls: ModelToolCall[]
}

/**
 * What a model wrapped by `withToolkit` works out once for all its calls: its description for telemetry,
 * whether it takes images in tool results, and the declarations of the toolkit's tools (one list per
 * tools list the loop hands it). Gemini refuses some names other providers take (`1password_get_item`):
 * over a Google provider a tool is declared under the name Gemini takes, and the wrapper's caller sees it
 * under its own.
 */
export class WrappedModel {
  readonly model: SpecLanguageModel
  readonly description: Transport<SpecMessage>['model']
  readonly takesImages: boolean
  readonly #gemini: boolean
  readonly #declarations: ToolDeclarations

  constructor(model: SpecLanguageModel, options: { strict: boolean; logger?: Logger }) {
    this.model = model
    const provider = String(model.provider)
    this.takesImages = takesImagesInToolResults(provider)
    this.description = { provider: mapGenAIProviderName(provider), id: String(model.modelId) }
    this.#gemini = sendsNamesToGemini(provider)
    this.#declarations = new ToolDeclarations({
      strict: options.strict,
      ...(this.#gemini && { name: geminiToolName }),
      ...(options.logger !== undefined && { logger: options.logger }),
    })
  }

  declarations(tools: readonly Tool[]): SpecFunctionTool[] {
    return this.#declarations.of(tools)
  }

  /** The tools' own names by the names they were declared under, where those differ; else `undefined`. */
  ownNames(tools: readonly Tool[]): ReadonlyMap<string, string> | undefined {
    if (!this.#gemini) return undefined
    const names = ownNamesByGeminiName(tools)
    return names.size === 0 ? undefined : names
  }
}

/**
 * The loop's transport for one call of a model wrapped by `withToolkit`. It speaks LanguageModel prompt
 * messages as they come from the AI SDK, sends every inner call with the caller's own settings and tools
 * beside the toolkit's, and keeps what the wrapper reports back: each call's content, the usage summed in
 * the provider's own shape, and the last call's finish reason and metadata. In a stream it hands every
 * part the provider streams to `relay` as it arrives.
 */
export class ProviderFormTransport implements Transport<SpecMessage> {
  readonly calls: InnerCall[] = []
  usage: SpecUsage | undefined
  finishReason: SpecFinishReason = 'unknown'
  providerMetadata: ProviderOptions | undefined
  warnings: unknown[] = []
  /** The last call's `request` and `response`, as the provider reported them. */
  request: unknown
  response: unknown
  readonly #wrapped: WrappedModel
  readonly #model: SpecLanguageModel
  readonly #options: CallerOptions
  readonly #callerTools: ReadonlyArray<SpecFunctionTool | SpecProviderTool>
  readonly #relay: ((part: SpecStreamPart) => void) | undefined
  #sent = 0
  readonly model: Transport<SpecMessage>['model']

  constructor(options: {
    model: WrappedModel
    callerOptions: CallerOptions
    relay?: (part: SpecStreamPart) => void
  }) {
    this.#wrapped = options.model
    this.#model = options.model.model
    this.#options = options.callerOptions
    this.#callerTools = options.callerOptions.tools ?? []
    this.#relay = options.relay
    this.model = options.model.description
  }

  userMessage(prompt: string): SpecMessage {
    return { role: 'user', content: [{ type: 'text', text: prompt }] }
  }

  async generate(request: TransportRequest<SpecMessage>): Promise<ModelTurn<SpecMessage>> {
    const ownNames = this.#wrapped.ownNames(request.tools)
    const result = await this.#model.doGenerate(this.#callOptions(request, ownNames))
    const finished = generatedTurn(result, ownNames)
    this.#record(result)
    const content =
      ownNames === undefined ? result.content : result.content.map((part) => withOwnName(part, ownNames))
    this.calls.push({ content, toolCalls: finished.toolCalls })
    return asSpecTurn(finished)
  }

  async *stream(request: TransportRequest<SpecMessage>): AsyncGenerator<TransportStreamPart<SpecMessage>> {
    const ownNames = this.#wrapped.ownNames(request.tools)
    const result = await this.#model.doStream(this.#callOptions(request, ownNames))
    this.request = result.request
    this.response = result.response
    const relay = this.#relay
    let finish: SpecStreamPart | undefined
    const streamed = (part: SpecStreamPart): void => {
      if (part.type === 'finish') finish = part
      else relay?.(ownNames === undefined ? part : withOwnName(part, ownNames))
    }
    for await (const part of readModelStream(result, streamed, ownNames)) {
      if (part.type === 'turn') {
        this.#record({
          usage: finish?.usage,
          finishReason: finish?.finishReason,
          providerMetadata: finish?.providerMetadata,
        })
        yield { type: 'turn', turn: asSpecTurn(part.turn) }
      } else {
        yield part
      }
    }
  }

  toolResultsMessages(results: ReadonlyArray<{ call: ModelToolCall; result: ToolResult }>): SpecMessage[] {
    return [
      toolResultsMessage(results, (result) =>
        toSpecToolResultOutput(
          toolResultOutput(result, this.#wrapped.takesImages),
          this.#model.specificationVersion,
        ),
      ),
    ]
  }

  classifyError(error: unknown): RetryAdvice {
    return classifyAISDKError(error)
  }

  #record(result: {
    usage?: SpecUsage | undefined
    finishReason?: SpecFinishReason | undefined
    providerMetadata?: ProviderOptions | undefined
    warnings?: unknown
    request?: unknown
    response?: unknown
  }): void {
    this.usage = sumSpecUsage(this.usage, result.usage)
    this.finishReason = result.finishReason ?? 'unknown'
    this.providerMetadata = result.providerMetadata
    if (Array.isArray(result.warnings)) this.warnings.push(...result.warnings)
    if ('request' in result) this.request = result.request
    if ('response' in result) this.response = result.response
  }

  #callOptions(
    request: TransportRequest<SpecMessage>,
    ownNames: ReadonlyMap<string, string> | undefined,
  ): SpecCallOptions {
    const first = this.#sent++ === 0
    const messages =
      ownNames === undefined
        ? request.messages
        : sentPrompt(request.messages, ownNames, renamed(request.memo))
    const prompt = withSystem(messages, request.system)
    const own = this.#wrapped.declarations(request.tools)
    const callerTools = this.#callerTools
    // A caller's tool of the same name as one of the toolkit's is the caller's.
    const tools =
      callerTools.length === 0
        ? own
        : [
            ...callerTools,
            ...own.filter(
              (tool) =>
                !callerTools.some(
                  (given) => given.name === tool.name || given.name === ownNames?.get(tool.name),
                ),
            ),
          ]
    const options: CallerOptions = { ...this.#options, prompt }
    if (request.signal !== undefined) options.abortSignal = request.signal
    if (tools.length === 0) {
      delete options.tools
      delete options.toolChoice
      return options
    }
    options.tools = tools
    // The caller's choice holds for the first call; after the toolkit answered, the model may stop.
    const choice = this.#options.toolChoice
    options.toolChoice =
      choice === undefined || (!first && choice.type !== 'none') ? { type: 'auto' } : choice
    return options
  }
}

/**
 * Turn parts built for the AI SDK's `ModelMessage` are LanguageModel prompt parts already (text,
 * reasoning and tool calls with their input as an object, each with its `providerOptions`).
 */
function asSpecTurn(turn: ModelTurn<unknown>): ModelTurn<SpecMessage> {
  return turn as ModelTurn<SpecMessage>
}

/** The prompt with the loop's system text after the caller's own leading system messages. */
function withSystem(messages: SpecMessage[], system: string | undefined): SpecMessage[] {
  if (system === undefined) return messages
  let leading = 0
  while (messages[leading]?.role === 'system') leading++
  return [...messages.slice(0, leading), { role: 'system', content: system }, ...messages.slice(leading)]
}

/** The messages renamed so far in this run, by message: kept in its memo from the first call on. */
function renamed(memo: TransportMemo): Map<SpecMessage, unknown> {
  if (memo.value === undefined) memo.value = new Map<SpecMessage, unknown>()
  return memo.value as Map<SpecMessage, unknown>
}
