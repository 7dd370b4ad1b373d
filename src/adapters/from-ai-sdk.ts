import { asSchema, type ToolSet } from 'ai'
import { ToolResultError } from '../errors.js'
import { consoleLogger, type Logger } from '../shared/logger.js'
import { sanitizeToolName } from '../tool/names.js'
import { toJsonSchema } from '../tool/to-json-schema.js'
import { errorMessage, errorResult, toJsonText, toolFailed } from '../tool/tool-result.js'
import type { JSONSchema, NeedsApproval, Tool, ToolContext, ToolResult } from '../tool/types.js'

/**
 * What `fromAISDK` takes besides the tool set.
 *
 * @example
 * const skipped: string[] = []
 * await fromAISDK(toolSet, { logger: { warn: (message) => skipped.push(message) } })
 */
export interface FromAISDKOptions {
  /** Where the reasons for skipped or renamed tools go. @default console */
  logger?: Logger
}

type AISDKSchema = ReturnType<typeof asSchema>

// The tool as this module reads it: the fields of every AI SDK major that matter here, all untrusted.
interface AISDKToolShape {
  type?: unknown
  id?: unknown
  description?: unknown
  inputSchema?: unknown
  /** The AI SDK 4 name of `inputSchema`. */
  parameters?: unknown
  execute?: unknown
  /** ai 6 and 7: `true`, or `(input, { toolCallId, messages, context }) => boolean | PromiseLike<boolean>`. */
  needsApproval?: unknown
}

let callCounter = 0

/**
 * Turns an AI SDK `ToolSet` into plain `Tool`s (`source: 'ai-sdk'`), so AI SDK tools join a toolkit and
 * render for every provider. Each schema is read with the AI SDK's own `asSchema(...).jsonSchema` (zod,
 * Standard Schema or `jsonSchema()`); arguments go through the schema's own validation first (so zod
 * defaults and transforms apply, as in `generateText`), then to `execute(input, { toolCallId, messages: [],
 * abortSignal })`. An async-iterable output yields its last value; a non-string output becomes its JSON
 * text; a throw, a failed validation or an MCP-style `{ isError: true, content }` result becomes an error
 * result. A tool's `needsApproval` (`true`, or its function of the input) is kept, so the toolkit's loop
 * asks for approval where `generateText` would. Provider-defined tools (`type: 'provider'`) have no portable schema and tools without `execute`
 * cannot run here: both are skipped with a warning. A name outside `[a-zA-Z0-9_-]{1,64}` is sanitized, with
 * a warning. Works with `ai` 6 and 7.
 *
 * @param toolSet - The AI SDK tools, keyed by name.
 * @param options - `logger` receives a line for every tool skipped or renamed.
 * @example
 * const weather = tool({
 *   description: 'Current weather for a city',
 *   inputSchema: z.object({ city: z.string() }),
 *   execute: async ({ city }) => ({ city, sky: 'sunny' }),
 * })
 * const tools = await fromAISDK({ weather })
 * await tools[0].execute({ city: 'Chennai' }) // { output: '{"city":"Chennai","sky":"sunny"}', isError: false }
 */
export async function fromAISDK(toolSet: ToolSet, options: FromAISDKOptions = {}): Promise<Tool[]> {
  const logger = options.logger ?? consoleLogger
  const entries: [string, unknown][] = Object.entries(toolSet)
  const converted = await Promise.all(entries.map(([key, candidate]) => convertTool(key, candidate, logger)))
  const tools: Tool[] = []
  const taken = new Map<string, string>()
  for (const [index, tool] of converted.entries()) {
    if (tool === undefined) continue
    const key = entries[index]?.[0] ?? tool.name
    const owner = taken.get(tool.name)
    if (owner !== undefined) {
      logger.warn(
        `AI SDK tools "${owner}" and "${key}" both become "${tool.name}": kept "${owner}", skipped "${key}".`,
      )
      continue
    }
    taken.set(tool.name, key)
    tools.push(tool)
  }
  return tools
}

async function convertTool(key: string, candidate: unknown, logger: Logger): Promise<Tool | undefined> {
  if (typeof candidate !== 'object' || candidate === null) {
    logger.warn(`Skipped AI SDK tool "${key}": it is not a tool object.`)
    return undefined
  }
  const shape: AISDKToolShape = candidate
  if (shape.type === 'provider' || shape.type === 'provider-defined') {
    const id = typeof shape.id === 'string' ? ` (${shape.id})` : ''
    logger.warn(
      `Skipped AI SDK tool "${key}"${id}: it is provider-defined, so its schema and behaviour belong to one provider and cannot be offered to others.`,
    )
    return undefined
  }
  const run = shape.execute
  if (typeof run !== 'function') {
    logger.warn(`Skipped AI SDK tool "${key}": it has no execute function, so there is nothing to run.`)
    return undefined
  }

  const name = sanitizeToolName(key)
  let schema: AISDKSchema
  let inputSchema: JSONSchema
  try {
    schema = asSchema((shape.inputSchema ?? shape.parameters) as Parameters<typeof asSchema>[0])
    const raw: unknown = await schema.jsonSchema
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new Error(`its schema is ${raw === null ? 'null' : typeof raw}, not a JSON Schema object`)
    }
    inputSchema = toJsonSchema({ ...raw }, name)
  } catch (error) {
    logger.warn(`Skipped AI SDK tool "${key}": its input schema could not be read (${errorMessage(error)}).`)
    return undefined
  }
  if (name !== key)
    logger.warn(`AI SDK tool "${key}" is exposed as "${name}" (names allow [a-zA-Z0-9_-], 1–64).`)

  const needsApproval = readNeedsApproval(shape.needsApproval, candidate)
  return {
    name,
    description: describe(shape.description),
    inputSchema,
    source: 'ai-sdk',
    ...(needsApproval === undefined ? {} : { needsApproval }),
    async execute(args: Record<string, unknown>, context: ToolContext = {}): Promise<ToolResult> {
      try {
        let input: unknown = args
        if (typeof schema.validate === 'function') {
          const validation = await schema.validate(args)
          if (!validation.success) {
            return errorResult(`Invalid arguments for tool "${name}": ${errorMessage(validation.error)}`)
          }
          input = validation.value
        }
        const output: unknown = await Reflect.apply(run, candidate, [input, executionOptions(context)])
        return toResult(isAsyncIterable(output) ? await lastValue(output) : output)
      } catch (error) {
        // A toolnexus tool seen through `toAISDK` already failed with a finished message: keep it as it is.
        if (ToolResultError.isInstance(error)) return errorResult(error.message, error.metadata)
        return toolFailed(name, error)
      }
    },
  }
}

// ai 7 names the per-tool context `context`, ai 6 `experimental_context`; a tool given no context reads
// `undefined` from either, exactly as inside `generateText` without one.
function executionOptions(context: ToolContext): Record<string, unknown> {
  callCounter += 1
  return {
    toolCallId: context.toolCallId ?? `toolnexus-${Date.now().toString(36)}-${callCounter}`,
    messages: [],
    abortSignal: context.signal,
    context: undefined,
    experimental_context: undefined,
  }
}

/** The tool's `needsApproval`, called the way `generateText` calls it; `undefined` when it never asks. */
function readNeedsApproval(flag: unknown, candidate: object): NeedsApproval | undefined {
  if (flag === true) return true
  if (typeof flag !== 'function') return undefined
  return (args, context) => {
    const { toolCallId, messages, context: toolContext, experimental_context } = executionOptions(context)
    return Reflect.apply(flag, candidate, [
      args,
      { toolCallId, messages, context: toolContext, experimental_context },
    ]) as boolean | PromiseLike<boolean>
  }
}

function describe(description: unknown): string {
  if (typeof description === 'string') return description
  if (typeof description === 'function') {
    // ai 7 allows a description computed from the tool context; outside a run there is none.
    try {
      const computed: unknown = description({ context: undefined })
      return typeof computed === 'string' ? computed : ''
    } catch {
      return ''
    }
  }
  return ''
}

function toResult(value: unknown): ToolResult {
  if (typeof value === 'string') return { output: value, isError: false }
  if (isMcpError(value)) return errorResult(mcpText(value.content))
  return { output: toJsonText(value), isError: false }
}

// What an MCP tool returns for a failure (`CallToolResult` with `isError`), e.g. from `@ai-sdk/mcp`.
function isMcpError(value: unknown): value is { isError: true; content?: unknown } {
  return typeof value === 'object' && value !== null && 'isError' in value && value.isError === true
}

function mcpText(content: unknown): string {
  if (!Array.isArray(content))
    return content === undefined ? 'The tool reported an error.' : toJsonText(content)
  const texts = content.flatMap((part: unknown) =>
    typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string'
      ? [part.text]
      : [],
  )
  if (texts.length > 0) return texts.join('\n')
  return content.length > 0 ? toJsonText(content) : 'The tool reported an error.'
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value
}

// A streaming tool yields preliminary outputs; the AI SDK, too, treats the last one as the result.
async function lastValue(iterable: AsyncIterable<unknown>): Promise<unknown> {
  let last: unknown
  for await (const value of iterable) last = value
  return last
}
