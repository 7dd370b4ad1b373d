import type { ToolResult } from './types.js'

/** An error result whose output is `message`. */
export function errorResult(message: string, metadata?: Record<string, unknown>): ToolResult {
  return metadata === undefined
    ? { output: message, isError: true }
    : { output: message, isError: true, metadata }
}

/**
 * The answer for a tool that threw or rejected: an error result naming the tool and what it threw.
 *
 * @example
 * toolFailed('get_weather', new Error('disk full')) // { output: 'Tool "get_weather" failed: disk full', isError: true }
 */
export function toolFailed(name: string, error: unknown): ToolResult {
  return errorResult(`Tool "${name}" failed: ${errorMessage(error)}`)
}

/**
 * The message of anything thrown, without a stack. Never throws: an error whose `message` getter throws
 * (or is not text) is described, not rethrown.
 *
 * @example
 * errorMessage(new Error('disk full')) // 'disk full'
 */
export function errorMessage(error: unknown): string {
  try {
    if (error instanceof Error) {
      const message: unknown = error.message
      if (typeof message === 'string' && message !== '') return message
      return typeof error.name === 'string' && error.name !== '' ? error.name : 'Error'
    }
    if (typeof error === 'string') return error
    return toJsonText(error)
  } catch {
    return '[an error whose message cannot be read]'
  }
}

/**
 * Text for any value: a string as it is, anything else as JSON (`undefined` as an empty string), and a
 * value JSON cannot hold (a cycle, a BigInt) as its `String()`. Never throws: a value that cannot be
 * turned into text at all (no prototype, a `toString` that throws) is `[unprintable object]`.
 */
export function toJsonText(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === undefined) return ''
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    try {
      return String(value)
    } catch {
      return `[unprintable ${typeof value}]`
    }
  }
}

/** True when `value` has the shape of a `ToolResult`. */
function isToolResult(value: unknown): value is ToolResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ToolResult).output === 'string' &&
    typeof (value as ToolResult).isError === 'boolean'
  )
}

/** A tool's return value as a `ToolResult`: a string is the output, a result stays, anything else is JSON. */
export function toToolResult(value: unknown): ToolResult {
  if (isToolResult(value)) return value
  return { output: toJsonText(value), isError: false }
}
