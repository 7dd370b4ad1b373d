import type { Content, Part } from '@google/genai'
import type { ModelToolCall } from '../loop/transport.js'
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
 * `response: { output }`, or `{ error }` for a failed call.
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
export function convertToFunctionResponseContent(answers: readonly AnsweredFunctionCall[]): Content {
  const parts = answers.map(({ call, result }): Part => {
    const response = result.isError ? { error: result.output } : { output: result.output }
    return {
      functionResponse:
        call.idGenerated === true
          ? { name: call.name, response }
          : { id: call.id, name: call.name, response },
    }
  })
  return { role: 'user', parts }
}
