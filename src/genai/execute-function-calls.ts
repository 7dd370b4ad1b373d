import type { Content } from '@google/genai'
import type { ToolContext } from '../tool/types.js'
import type { Toolkit } from '../toolkit/toolkit.js'
import {
  convertToFunctionResponseContent,
  takesFunctionResponseImages,
} from './convert-to-function-response-content.js'
import type { GenAIContent, GenAIResponse } from './genai-types.js'
import { readFunctionCalls } from './read-function-calls.js'

/**
 * Options of {@link executeFunctionCalls}.
 *
 * @example
 * await executeFunctionCalls(toolkit, response, { signal: AbortSignal.timeout(30_000), timeoutMs: 10_000 })
 */
export interface ExecuteFunctionCallsOptions {
  /** Aborts every running tool (through its `context.signal`); the answers then say so. */
  signal?: AbortSignal
  /** Milliseconds each tool may take; overrides the toolkit's `toolTimeoutMs`. */
  timeoutMs?: number
  /**
   * The model the answers go to. A Gemini 3 (or later) model gets a tool's images inside its
   * `functionResponse` (`parts` with inline data); without it, or for earlier models, only the text.
   */
  model?: string
}

/**
 * For people who run their own Gemini loop: runs every `functionCall` of a response (or of its model
 * `Content`) through the toolkit, concurrently, and returns the `user` turn to append after the model
 * turn — one `functionResponse` part per call, in call order, with the call's name, its id when Gemini
 * sent one, and `response: { output }` or `{ error }`. An unknown function, bad arguments, a throw or a
 * timeout are answered as `{ error }`; this never rejects. With no calls, `parts` is empty: the model is
 * done and there is nothing to append.
 *
 * Append the model turn itself as `response.candidates[0].content`, never rebuilt from
 * `response.functionCalls`, which drops the `thoughtSignature` Gemini 3 requires back.
 *
 * @example
 * const contents: Content[] = [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }]
 * for (let turn = 0; turn < 10; turn++) {
 *   const response = await ai.models.generateContent({ model, contents, config: { tools: toolkit.toGemini() } })
 *   const modelTurn = response.candidates?.[0]?.content
 *   if (modelTurn === undefined) break
 *   const answers = await executeFunctionCalls(toolkit, response)
 *   if (answers.parts?.length === 0) { console.log(response.text); break }
 *   contents.push(modelTurn, answers)
 * }
 */
export async function executeFunctionCalls(
  toolkit: Pick<Toolkit, 'execute'>,
  responseOrContent: Pick<GenAIResponse, 'candidates'> | GenAIContent,
  options: ExecuteFunctionCallsOptions = {},
): Promise<GenAIContent> {
  // GenAIContent is the structural copy of the SDK's Content that the public signature names.
  const content = (
    isContent(responseOrContent) ? responseOrContent : responseOrContent.candidates?.[0]?.content
  ) as Content | undefined
  const answers = await Promise.all(
    readFunctionCalls({ content }).map(async (call) => {
      const context: ToolContext = { toolCallId: call.id }
      if (options.signal !== undefined) context.signal = options.signal
      if (options.timeoutMs !== undefined) context.timeoutMs = options.timeoutMs
      return { call, result: await toolkit.execute(call.name, call.input, context) }
    }),
  )
  const takesImages = options.model !== undefined && takesFunctionResponseImages(options.model)
  return convertToFunctionResponseContent(answers, { takesImages })
}

function isContent(value: Pick<GenAIResponse, 'candidates'> | GenAIContent): value is GenAIContent {
  return 'parts' in value || 'role' in value
}
