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
  const object = toolInputObject(raw)
  if (object !== undefined) return { input: object }
  const text = typeof raw === 'string' ? raw : toJsonText(raw)
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return { input: text, inputProblem: `they are not valid JSON (${errorMessage(error)})` }
  }
  const kind = Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : `a ${typeof parsed}`
  return { input: text, inputProblem: `expected a JSON object, got ${kind}` }
}

/**
 * The object a tool call's arguments are or hold, read as {@link decodeToolInput} reads them but with no
 * wrapper made: for a transport that builds every call, where arguments are nearly always a JSON object.
 * `undefined` when they are not one; `decodeToolInput` then says why.
 *
 * @example
 * toolInputObject('{"city":"Pune"}') // { city: 'Pune' }
 * toolInputObject('[1]')             // undefined
 */
export function toolInputObject(raw: unknown): Record<string, unknown> | undefined {
  if (raw === undefined || raw === null) return {}
  if (typeof raw === 'object') return Array.isArray(raw) ? undefined : (raw as Record<string, unknown>)
  if (typeof raw !== 'string') return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    // Empty text is `{}`, as some providers send for a call without arguments.
    return raw.trim() === '' ? {} : undefined
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : undefined
}
