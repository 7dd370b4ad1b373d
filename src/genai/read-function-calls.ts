import type { Content, Part } from '@google/genai'
import type { ModelToolCall } from '../contracts/transport.js'
import { uniqueCallId } from '../loop/call-ids.js'

/**
 * A Gemini call as a loop tool call: Gemini sends arguments already parsed.
 *
 * @example
 * const call: GeminiToolCall = { id: 'gemini-call-1', name: 'add', input: { a: 1 }, idGenerated: true }
 */
export interface GeminiToolCall extends ModelToolCall {
  input: Record<string, unknown>
}

/**
 * Makes up an id for a call Gemini sent without one; unique within the process.
 *
 * @example
 * let n = 0
 * const createId: CallIdFactory = () => `call-${++n}`
 */
export type CallIdFactory = () => string

let generatedCallIds = 0

/**
 * The default {@link CallIdFactory}: `gemini-call-<n>`. Ids are only needed to tell calls apart inside a
 * run (events, records); they never reach Gemini, which pairs id-less calls with answers by position.
 *
 * @example
 * nextGeneratedCallId() // 'gemini-call-1'
 */
export function nextGeneratedCallId(): string {
  generatedCallIds += 1
  return `gemini-call-${generatedCallIds}`
}

/**
 * Reads every `functionCall` part of a model turn, in part order, as loop tool calls. A call without an id
 * gets one from `createId` and `idGenerated: true`, so its answer carries no id; a call without arguments
 * gets `{}`; a call without a name keeps `''` and is answered with an error by the toolkit like any
 * unknown name.
 *
 * @example
 * readFunctionCalls({ content: { role: 'model', parts: [{ functionCall: { name: 'add', args: { a: 1 } } }] } })
 * // [{ id: 'gemini-call-1', name: 'add', input: { a: 1 }, idGenerated: true }]
 */
export function readFunctionCalls(options: {
  content: Content | undefined
  createId?: CallIdFactory
}): GeminiToolCall[] {
  const parts = options.content?.parts
  if (parts === undefined) return []
  const createId = options.createId ?? nextGeneratedCallId
  const calls: GeminiToolCall[] = []
  for (const part of parts) {
    const call = part.functionCall
    if (call === undefined || call === null) continue
    const name = typeof call.name === 'string' ? call.name : ''
    const args: unknown = call.args
    const input =
      typeof args === 'object' && args !== null && !Array.isArray(args)
        ? (args as Record<string, unknown>)
        : {}
    if (typeof call.id !== 'string' || call.id === '') {
      calls.push({ id: createId(), name, input, idGenerated: true })
      continue
    }
    // A repeated id would give one id several answers: the repeat gets an id of its own and, since
    // Gemini does not know that id, is answered by position like a call without one.
    const id = uniqueCallId(call.id, calls)
    calls.push(id === call.id ? { id, name, input } : { id, name, input, idGenerated: true })
  }
  return calls
}

/**
 * The answer text of a model turn: its text parts joined, leaving out `thought` parts (the model's
 * reasoning summary is not its answer).
 *
 * @example
 * readAnswerText([{ text: 'plan', thought: true }, { text: 'Hello' }]) // 'Hello'
 */
export function readAnswerText(parts: readonly Part[] | undefined): string {
  if (parts === undefined) return ''
  let text = ''
  for (const part of parts) {
    if (typeof part.text === 'string' && part.thought !== true) text += part.text
  }
  return text
}
