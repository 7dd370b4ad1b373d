import { toJsonText } from '../tool/tool-result.js'

/**
 * A tool call's arguments as the loop takes them: the object a JSON text holds, an object a provider
 * sent already parsed (not a string, as the spec says, but some do), or else the text itself, which the
 * loop answers with an error quoting it.
 *
 * @example
 * readToolInput('{"city":"Pune"}') // { city: 'Pune' }
 * readToolInput({ city: 'Pune' })  // { city: 'Pune' }
 * readToolInput(42)                // '42'
 */
export function readToolInput(input: unknown): Record<string, unknown> | string {
  if (input === undefined || input === null) return {}
  if (typeof input === 'string') return parseObject(input) ?? input
  if (typeof input === 'object' && !Array.isArray(input)) return input as Record<string, unknown>
  return toJsonText(input)
}

/**
 * The object a JSON text holds, or undefined when it is not JSON or not an object. Empty text is `{}`
 * (some providers send no text for a call without arguments).
 *
 * @example
 * parseObject('{"city":"Pune"}') // { city: 'Pune' }
 * parseObject('[1]')             // undefined
 */
export function parseObject(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {}
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}
