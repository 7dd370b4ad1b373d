import { errorMessage, toJsonText } from '../tool/tool-result.js'

/** A tool call's arguments as decoded: an object, or the text as sent and why it is not one. */
export type DecodedToolInput = { input: Record<string, unknown> } | { input: string; inputProblem: string }

/**
 * Decodes a tool call's arguments once, for every transport: the object a JSON text holds (empty text is
 * `{}`, as some providers send for a call without arguments), an object a provider sent already parsed,
 * or else the text as sent with the reason the loop words its answer with.
 *
 * @example
 * decodeToolInput('{"city":"Pune"}') // { input: { city: 'Pune' } }
 * decodeToolInput({ city: 'Pune' })  // { input: { city: 'Pune' } }
 * decodeToolInput('[1]')             // { input: '[1]', inputProblem: 'expected a JSON object, got an array' }
 */
export function decodeToolInput(raw: unknown): DecodedToolInput {
  if (raw === undefined || raw === null) return { input: {} }
  if (typeof raw === 'object' && !Array.isArray(raw)) return { input: raw as Record<string, unknown> }
  const text = typeof raw === 'string' ? raw : toJsonText(raw)
  if (text.trim() === '') return { input: {} }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return { input: text, inputProblem: `they are not valid JSON (${errorMessage(error)})` }
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    return { input: parsed as Record<string, unknown> }
  }
  const kind = Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : `a ${typeof parsed}`
  return { input: text, inputProblem: `expected a JSON object, got ${kind}` }
}
