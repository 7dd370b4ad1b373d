import type {
  Content,
  GenerateContentConfig,
  GenerateContentParameters,
  GenerateContentResponse,
  GenerateContentResponseUsageMetadata,
  Models,
  Part,
} from '@google/genai'
import { type GeminiToolWrapper, toGemini } from '../adapters/to-gemini.js'
import type { ModelTurn, Transport, TransportRequest, TransportStreamPart } from '../contracts/transport.js'
import type { Logger } from '../shared/logger.js'
import type { Tool } from '../tool/types.js'
import { classifyGenAIError } from './classify-genai-error.js'
import { convertGeminiUsage } from './convert-gemini-usage.js'
import {
  convertToFunctionResponseContent,
  takesFunctionResponseImages,
} from './convert-to-function-response-content.js'
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js'
import {
  type CallIdFactory,
  nextGeneratedCallId,
  readAnswerText,
  readFunctionCalls,
} from './read-function-calls.js'
import { asGenAITool } from './to-genai-tools.js'

/**
 * The part of a `GoogleGenAI` instance the transport uses: `models.generateContent` and
 * `models.generateContentStream`. Any `GoogleGenAI` (Gemini API or Vertex AI) fits.
 *
 * @example
 * const genai: GenAIClientLike = new GoogleGenAI({ apiKey, httpOptions: { apiVersion: 'v1beta' } })
 */
export interface GenAIClientLike {
  models: Pick<Models, 'generateContent' | 'generateContentStream'>
}

/**
 * Generation settings sent with every call; the transport owns `tools`, `systemInstruction` and `abortSignal`.
 *
 * @example
 * const config: GenAIGenerationConfig = { temperature: 0, thinkingConfig: { thinkingBudget: 1024 } }
 */
export type GenAIGenerationConfig = Omit<GenerateContentConfig, 'tools' | 'systemInstruction' | 'abortSignal'>

/**
 * Options of {@link createGenAITransport}.
 *
 * @example
 * const options: GenAITransportOptions = { genai, model: 'gemini-2.5-flash', config: { temperature: 0 } }
 */
export interface GenAITransportOptions {
  /** A `GoogleGenAI` instance. Give it `httpOptions: { apiVersion: 'v1beta' }` on the Gemini API (see docs/genai.md). */
  genai: GenAIClientLike
  /** The model id, e.g. `'gemini-2.5-flash'`. */
  model: string
  /** Generation settings for every call (`temperature`, `thinkingConfig`, …). */
  config?: GenAIGenerationConfig
  /** Makes up ids for calls Gemini sent without one. @default `gemini-call-<n>` */
  createCallId?: CallIdFactory
  /**
   * How tool schemas are sent: `'parameters'` lowers each into Gemini's Schema subset (every model takes
   * it); `'json'` sends each JSON Schema unchanged as `parametersJsonSchema` (Gemini 2.5 and later, Vertex AI),
   * keeping what the subset cannot say.
   *
   * @default 'parameters'
   */
  schema?: GenAISchemaForm
  /** Also hears the warnings about tool schemas (besides the toolkit's logger). @default none */
  logger?: Logger
}

/**
 * The form tool schemas take on the wire: lowered `parameters`, or JSON Schema as `parametersJsonSchema`.
 *
 * @example
 * const form: GenAISchemaForm = 'json'
 */
type GenAISchemaForm = 'parameters' | 'json'

/**
 * The loop's transport over `@google/genai`: `generate` calls `models.generateContent`, `stream` calls
 * `models.generateContentStream`, with `tools: toGemini(tools)` (left out when there are none), the system
 * prompt as `systemInstruction` and the run's signal as `abortSignal`.
 *
 * The model turn is kept verbatim — `candidates[0].content` itself, every part in order, `thought` parts
 * and the empty text parts that carry a `thoughtSignature` included — because Gemini 3 wants each
 * signature back on the exact part it came on. A stream's turn is every chunk's parts concatenated in
 * order. Adjacent text parts are not merged: merging would have to decide which part a signature belongs
 * to, while the unmerged parts are exactly what the API would see if the chunks were sent back as they
 * came. The one thing dropped is a part that carries nothing at all (`{ text: '' }` with no signature),
 * which Gemini and Vertex AI refuse to be sent ("empty text parameter").
 *
 * @example
 * const genai = new GoogleGenAI({ apiKey, httpOptions: { apiVersion: 'v1beta' } })
 * const transport = createGenAITransport({ genai, model: 'gemini-2.5-flash' })
 * const turn = await transport.generate({
 *   messages: [transport.userMessage('Hi')], tools: [], system: undefined, signal: undefined, memo: { value: undefined },
 * })
 */
export function createGenAITransport(options: GenAITransportOptions): Transport<Content> {
  const { genai, model } = options
  const takesImages = takesFunctionResponseImages(model)
  const baseConfig = options.config ?? {}
  const createId = options.createCallId ?? nextGeneratedCallId
  // toGemini lowers every schema; the loop passes the same tools array turn after turn, so do it once.
  const declarationsByTools = new WeakMap<readonly Tool[], GeminiToolWrapper>()

  function parameters(request: TransportRequest<Content>): GenerateContentParameters {
    // Copied with Object.assign: a spread copy that then gains keys is a slow path in V8.
    const config: GenerateContentConfig = Object.assign({}, baseConfig)
    if (request.signal !== undefined) config.abortSignal = request.signal
    if (request.tools.length > 0) {
      let wrapper = declarationsByTools.get(request.tools)
      if (wrapper === undefined) {
        wrapper = toGemini(request.tools, {
          parametersJsonSchema: options.schema === 'json',
          ...(options.logger !== undefined && { logger: options.logger }),
        })[0]
        declarationsByTools.set(request.tools, wrapper)
      }
      config.tools = [asGenAITool(wrapper)]
    }
    if (request.system !== undefined && request.system !== '') {
      config.systemInstruction = { parts: [{ text: request.system }] }
    }
    return { model, contents: sendableContents(request.messages), config }
  }

  function turnOf(
    response: { responseId?: unknown; modelVersion?: unknown },
    content: Content,
    finish: FinishInfo,
  ): ModelTurn<Content> {
    const toolCalls = readFunctionCalls({ content, createId })
    const turn: ModelTurn<Content> = {
      text: readAnswerText(content.parts),
      toolCalls,
      usage: convertGeminiUsage(finish.usage),
      finishReason: finish.blocked
        ? 'content-filter'
        : mapGeminiFinishReason({ finishReason: finish.finishReason, hasToolCalls: toolCalls.length > 0 }),
      message: content,
      response,
    }
    if (typeof response.responseId === 'string') turn.responseId = response.responseId
    if (typeof response.modelVersion === 'string') turn.responseModel = response.modelVersion
    return turn
  }

  // `vertexai` is set on a GoogleGenAI made for Vertex AI; the Gemini API is the default.
  const provider = (genai as { vertexai?: unknown }).vertexai === true ? 'gcp.vertex_ai' : 'gcp.gemini'
  return {
    model: { provider, id: model },

    userMessage(prompt) {
      return { role: 'user', parts: [{ text: prompt }] }
    },

    async generate(request) {
      const response = await genai.models.generateContent(parameters(request))
      const candidate = response.candidates?.[0]
      return turnOf(response, verbatimModelContent(candidate?.content), {
        finishReason: candidate?.finishReason,
        usage: response.usageMetadata,
        blocked: candidate === undefined && response.promptFeedback?.blockReason !== undefined,
      })
    },

    async *stream(request): AsyncGenerator<TransportStreamPart<Content>> {
      const chunks = await genai.models.generateContentStream(parameters(request))
      const parts: Part[] = []
      let role: string | undefined
      let finishReason: string | undefined
      let usage: GenerateContentResponseUsageMetadata | undefined
      let last: GenerateContentResponse | undefined
      for await (const chunk of chunks) {
        last = chunk
        if (chunk.usageMetadata !== undefined) usage = chunk.usageMetadata
        const candidate = chunk.candidates?.[0]
        if (candidate === undefined) continue
        if (candidate.finishReason !== undefined) finishReason = candidate.finishReason
        const content = candidate.content
        if (content === undefined) continue
        role ??= content.role
        for (const part of content.parts ?? []) {
          if (carriesNothing(part)) continue
          parts.push(part)
          if (typeof part.text === 'string' && part.text !== '' && part.thought !== true) {
            yield { type: 'text-delta', text: part.text }
          }
        }
      }
      const content: Content = { role: role ?? 'model', parts }
      // Hooks get the stream as one response: the last chunk's fields, with the whole turn as its content.
      const response = {
        ...last,
        candidates: [
          { ...last?.candidates?.[0], content, ...(finishReason === undefined ? {} : { finishReason }) },
        ],
        usageMetadata: usage,
      }
      yield {
        type: 'turn',
        turn: turnOf(response, content, {
          finishReason,
          usage,
          blocked: parts.length === 0 && last?.promptFeedback?.blockReason !== undefined,
        }),
      }
    },

    toolResultsMessages(results) {
      return results.length === 0 ? [] : [convertToFunctionResponseContent(results, { takesImages })]
    },

    classifyError: classifyGenAIError,
  }
}

interface FinishInfo {
  finishReason: string | undefined
  usage: GenerateContentResponseUsageMetadata | undefined
  /** The prompt itself was blocked: no candidate at all. */
  blocked: boolean
}

/**
 * The candidate's content as the transcript keeps it: the very object Gemini sent — copied only to give it
 * `role: 'model'` or `parts: []` when it lacks them (a blocked or cut-off answer can come without parts),
 * or to leave out a part that carries nothing, which Gemini would refuse to be sent back.
 */
function verbatimModelContent(content: Content | undefined): Content {
  if (content === undefined) return { role: 'model', parts: [] }
  const parts = content.parts ?? []
  if (content.role !== undefined && content.parts !== undefined && !parts.some(carriesNothing)) return content
  return { ...content, role: content.role ?? 'model', parts: parts.filter((part) => !carriesNothing(part)) }
}

/** A `{ text: '' }` and nothing else: no text, no signature, no call. */
function carriesNothing(part: Part): boolean {
  if (part.text !== '') return false
  for (const key in part) {
    if (key !== 'text' && Reflect.get(part, key) !== undefined) return false
  }
  return true
}

/**
 * Gemini rejects a content without parts; a model turn that came back empty stays in the transcript (it
 * happened) but is left out of what is sent. Most turns have none, so the array is passed through as is.
 */
function sendableContents(messages: Content[]): Content[] {
  return messages.some(hasNoParts) ? messages.filter((message) => !hasNoParts(message)) : messages
}

function hasNoParts(content: Content): boolean {
  return content.parts === undefined || content.parts.length === 0
}
