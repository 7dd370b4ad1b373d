import type { Content, FunctionResponse, Part } from '@google/genai'
import type { ModelToolCall } from '../contracts/transport.js'
import type { ToolResult } from '../tool/types.js'

/**
 * One answered call: the call as the model sent it and the result it gets.
 *
 * @example
 * const answered: AnsweredFunctionCall = { call: { id: 'a1', name: 'add' }, result: { output: '3', isError: false } }
 */
export interface AnsweredFunctionCall {
  call: Pick<ModelToolCall, 'id' | 'name' | 'idGenerated'>
  result: ToolResult
}

/**
 * The `user` turn answering every call of one model turn: one `functionResponse` part per call, in call
 * order (Gemini pairs id-less calls with answers by position, and wants as many answers as calls in one
 * turn). Each part names the function, carries the call's id only when Gemini sent one, and holds
 * `response: { output }`, or `{ error }` for a failed call. With `takesImages`, a successful result's
 * images ride along in the part's `parts` as inline data.
 *
 * @example
 * convertToFunctionResponseContent([
 *   { call: { id: 'a1', name: 'add' }, result: { output: '3', isError: false } },
 *   { call: { id: 'gemini-call-7', name: 'add', idGenerated: true }, result: { output: 'bad a', isError: true } },
 * ])
 * // { role: 'user', parts: [
 * //   { functionResponse: { id: 'a1', name: 'add', response: { output: '3' } } },
 * //   { functionResponse: { name: 'add', response: { error: 'bad a' } } } ] }
 */
export function convertToFunctionResponseContent(
  answers: readonly AnsweredFunctionCall[],
  options: { takesImages?: boolean } = {},
): Content {
  const parts = answers.map(({ call, result }): Part => {
    const response = result.isError ? { error: result.output } : { output: result.output }
    const functionResponse: FunctionResponse =
      call.idGenerated === true ? { name: call.name, response } : { id: call.id, name: call.name, response }
    if (options.takesImages === true && !result.isError && result.media !== undefined) {
      const images = result.media.filter(
        (media) => media.type === 'image' && IMAGE_TYPES.has(media.mediaType),
      )
      if (images.length > 0) {
        functionResponse.parts = images.map((image) => ({
          inlineData: { mimeType: image.mediaType, data: image.data },
        }))
      }
    }
    return { functionResponse }
  })
  return { role: 'user', parts }
}

/** The image types Gemini takes in `functionResponse.parts`. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp'])

/**
 * Whether a Gemini model takes images inside a function response (`functionResponse.parts`, inline
 * data): Gemini 3 and later do; earlier models get the result's text, which names each image.
 *
 * @example
 * takesFunctionResponseImages('gemini-3-flash-preview') // true
 * takesFunctionResponseImages('gemini-2.5-flash')       // false
 */
export function takesFunctionResponseImages(model: string): boolean {
  const match = /^(?:models\/)?gemini-(\d+)/.exec(model)
  return match !== null && Number(match[1]) >= 3
}
