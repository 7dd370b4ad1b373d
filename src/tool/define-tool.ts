import { ToolDefinitionError } from '../errors.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import type { InferToolArgs } from './infer-tool-args.js'
import { sanitizeToolName, TOOL_NAME_PATTERN } from './names.js'
import { type InputSchema, toJsonSchema } from './to-json-schema.js'
import { toolFailed, toToolResult } from './tool-result.js'
import type { LongRunning, NeedsApproval, Tool, ToolAnnotations, ToolContext } from './types.js'
import { validatingTool } from './validating-tool.js'

/** What `defineTool` takes. `Schema` is the type of `inputSchema`, from which `execute`'s arguments are typed. */
export interface DefineToolOptions<Schema extends InputSchema | undefined = InputSchema | undefined> {
  /** The exposed name: 1–64 of `[a-zA-Z0-9_-]`. */
  name: string
  /** What the tool does and when to use it; the model reads this. */
  description: string
  /**
   * JSON Schema, zod, a zod shape (`{ city: z.string() }`), Standard Schema or an AI SDK `Schema`. Omitted:
   * a tool without arguments. The arguments of `execute` are typed from it: a zod or Standard Schema's
   * input type, the object a zod shape describes, the type of an AI SDK `jsonSchema<T>()`, or what a JSON
   * Schema literal describes (written inline, or `as const`).
   */
  inputSchema?: Schema
  /**
   * Does the work. Return a string (the output), a `ToolResult`, or any value (its JSON text becomes the
   * output). A throw becomes an error result; the arguments already fit the schema when this runs.
   */
  execute: (args: InferToolArgs<Schema>, context: ToolContext) => unknown
  /**
   * Calls wait for a person's approval before they run: `true`, or a function of the (checked) arguments
   * that decides each call. A run with such a call ends `suspended`; `client.resume` goes on. @default false
   */
  needsApproval?:
    | boolean
    | ((args: InferToolArgs<Schema>, context: ToolContext) => boolean | PromiseLike<boolean>)
  /** Hints for MCP clients when the toolkit is served over MCP (`readOnlyHint`, `destructiveHint`, …). */
  annotations?: ToolAnnotations
  /**
   * Served over MCP as a task: a client that supports tasks gets a task id at once and polls for the
   * result, so a call may outlast one HTTP request. `{ required: true }` refuses clients without tasks;
   * `{ timeoutMs }` bounds the task. Runs as usual everywhere else. @default false
   */
  longRunning?: LongRunning
}

/**
 * Defines a native tool (`source: 'native'`) from a function and a schema. The arguments of `execute`
 * are typed from `inputSchema`, so a misspelt argument name does not compile.
 *
 * @throws {ToolDefinitionError} when the name or the schema cannot be represented; the message says
 * what to change.
 * @example
 * const weather = defineTool({
 *   name: 'get_weather',
 *   description: 'Current weather for a city',
 *   inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 *   execute: ({ city }) => `sunny in ${city}`, // city: string
 * })
 * await weather.execute({ city: 'Chennai' }) // { output: 'sunny in Chennai', isError: false }
 */
export function defineTool<const Schema extends InputSchema | undefined = undefined>(
  options: DefineToolOptions<Schema>,
): Tool {
  const { name, description, execute } = options
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    const suggestion = typeof name === 'string' && name.length > 0 ? ` Try "${sanitizeToolName(name)}".` : ''
    throw new ToolDefinitionError(
      `Tool name ${JSON.stringify(name)} is not allowed: use 1–64 characters from [a-zA-Z0-9_-].${suggestion}`,
    )
  }
  if (typeof execute !== 'function') {
    throw new ToolDefinitionError(`Tool "${name}": execute must be a function.`)
  }
  const { needsApproval } = options
  if (
    needsApproval !== undefined &&
    typeof needsApproval !== 'boolean' &&
    typeof needsApproval !== 'function'
  ) {
    throw new ToolDefinitionError(
      `Tool "${name}": needsApproval must be a boolean or a function (args, context) => boolean.`,
    )
  }
  const failed = (error: unknown) => toolFailed(name, error)
  return validatingTool({
    ...(needsApproval === undefined || needsApproval === false
      ? {}
      : { needsApproval: needsApproval as NeedsApproval }),
    name,
    description: typeof description === 'string' ? description : '',
    inputSchema: toJsonSchema(options.inputSchema, name),
    source: 'native',
    ...(options.annotations === undefined ? {} : { annotations: options.annotations }),
    ...(options.longRunning === undefined || options.longRunning === false
      ? {}
      : { longRunning: checkedLongRunning(name, options.longRunning) }),
    // Not `async`: most tools answer synchronously, and their result is handed back as it is (`execute`
    // wraps it in a promise), so that `runTool` has nothing to wait for and no deadline to set.
    run(args, context) {
      try {
        const value = execute(args as InferToolArgs<Schema>, context)
        if (!isPromiseLike(value)) return toToolResult(value)
        return Promise.resolve(value).then(toToolResult, failed)
      } catch (error) {
        return failed(error)
      }
    },
  })
}

function checkedLongRunning(name: string, given: LongRunning): LongRunning {
  if (given === true) return true
  const timeoutMs = typeof given === 'object' && given !== null ? given.timeoutMs : undefined
  const inputFirst = typeof given === 'object' && given !== null ? given.inputFirst : undefined
  if (
    typeof given !== 'object' ||
    given === null ||
    (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && timeoutMs > 0)) ||
    (inputFirst !== undefined && typeof inputFirst !== 'boolean')
  ) {
    throw new ToolDefinitionError(
      `Tool "${name}": longRunning must be true or { required?: boolean, timeoutMs?: number > 0, inputFirst?: boolean }.`,
    )
  }
  return given
}
