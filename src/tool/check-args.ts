import { coerceScalarStrings } from './coerce-scalar-strings.js'
import { dropOptionalNulls } from './drop-optional-nulls.js'
import { fillRequiredDefaults } from './fill-required-defaults.js'
import { restoreRenamedKeys } from './property-names.js'
import type { JSONSchema } from './types.js'
import { validateArgs } from './validate-args.js'

/**
 * The one place tool-call arguments are checked, for every path that runs a tool (the toolkit, a tool's
 * own `execute`, `toAISDK`): validate against the schema; when that fails, read a `null` sent for an optional
 * argument as absent (OpenAI strict mode), fill in the `default` of a required property left out (as the
 * server would), read numbers and booleans sent as text for what they say (`"60"` for an integer,
 * Gemini's string enums) and validate again.
 * Returns the arguments to run with (`args` itself, or a coerced copy), or the problem as text, naming
 * each argument and why.
 *
 * @example
 * const schema = { type: 'object', properties: { minutes: { type: 'integer' } }, required: ['minutes'] }
 * checkArgs(schema, { minutes: 5 })    // { minutes: 5 } (the same object)
 * checkArgs(schema, { minutes: '60' }) // { minutes: 60 }
 * checkArgs(schema, {})                // 'minutes: required argument is missing'
 */
export function checkArgs(schema: JSONSchema, received: unknown): Record<string, unknown> | string {
  // The arguments themselves, not a wrapper: nothing is allocated for arguments that pass.
  // Property names a provider refuses were sent renamed; the model answers with those names.
  const args = restoreRenamedKeys(schema, received)
  const problem = validateArgs(schema, args)
  if (problem === undefined) return args as Record<string, unknown>
  // What providers send for what the schema says: `null` for an optional argument (OpenAI strict mode),
  // numbers and booleans as text (Gemini's string enums); and what the server fills in itself: the
  // default of a required property left out.
  const coerced = coerceScalarStrings(schema, fillRequiredDefaults(schema, dropOptionalNulls(schema, args)))
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
