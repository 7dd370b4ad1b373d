import { coerceScalarStrings } from './coerce-args.js'
import type { JSONSchema } from './types.js'
import { validateArgs } from './validate-args.js'

/**
 * The one place tool-call arguments are checked, for every path that runs a tool (the toolkit, a tool's
 * own `execute`, `toAISDK`): validate against the schema; when that fails, read numbers and booleans
 * sent as text for what they say (`"60"` for an integer, Gemini's string enums) and validate again.
 * Returns the arguments to run with (`args` itself, or a coerced copy), or the problem as text, naming
 * each argument and why. Returning the arguments rather than a wrapper keeps the hot path free of
 * allocations.
 *
 * @example
 * const schema = { type: 'object', properties: { minutes: { type: 'integer' } }, required: ['minutes'] }
 * checkArgs(schema, { minutes: 5 })    // { minutes: 5 } (the same object)
 * checkArgs(schema, { minutes: '60' }) // { minutes: 60 }
 * checkArgs(schema, {})                // 'minutes: required argument is missing'
 */
export function checkArgs(schema: JSONSchema, args: unknown): Record<string, unknown> | string {
  const problem = validateArgs(schema, args)
  if (problem === undefined) return args as Record<string, unknown>
  const coerced = coerceScalarStrings(schema, args)
  if (coerced !== args && validateArgs(schema, coerced) === undefined)
    return coerced as Record<string, unknown>
  return problem
}

/**
 * The error text for arguments that `checkArgs` refused.
 *
 * @example
 * invalidArgsMessage('get_weather', 'city: required argument is missing')
 * // 'Invalid arguments for tool "get_weather": city: required argument is missing'
 */
export function invalidArgsMessage(toolName: string, problem: string): string {
  return `Invalid arguments for tool "${toolName}": ${problem}`
}
