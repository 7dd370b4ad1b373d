import type { JSONSchema7 } from '@ai-sdk/provider'
import { jsonSchema, type ToolSet, tool } from 'ai'
import { ToolnexusError } from '../errors.js'
import type { Logger } from '../shared/logger.js'
import { checkArgs, invalidArgsMessage } from '../tool/check-args.js'
import { errorMessage } from '../tool/tool-result.js'
import type { Tool, ToolResult } from '../tool/types.js'
import { runnerForCheckedArgs } from '../tool/validating-tool.js'
import { notStrictWarning, strictCached } from './convert-to-openai-tools.js'
import { warnAboutSchema } from './schema-warnings.js'

/**
 * A toolnexus tool's error result, inside the AI SDK. `toAISDK` throws it from `execute` so that the AI SDK
 * records a `tool-error`: the model receives `{ type: 'error-text', value: message }` and the UI an
 * `output-error` part, exactly as for any AI SDK tool that fails. The message is the result's `output`.
 *
 * @example
 * const result = await generateText({ model, tools: toAISDK(tools), prompt })
 * const failed = result.steps.flatMap((step) => step.content).filter((part) => part.type === 'tool-error')
 * failed.filter((part) => ToolResultError.isInstance(part.error)) // the tools' own error results
 */
export class ToolResultError extends ToolnexusError {
  protected static override readonly marker: symbol = Symbol.for('toolnexus.error.ToolResultError')

  /** The failed result's metadata, when it had some. */
  readonly metadata: Record<string, unknown> | undefined

  constructor(message: string, metadata?: Record<string, unknown>) {
    super(message)
    this.metadata = metadata
  }

  /** The tool's own output, without a class-name prefix: the AI SDK sends `String(error)` to the model. */
  override toString(): string {
    return this.message
  }
}

/**
 * What `toAISDK` takes besides the tools.
 *
 * @example
 * toAISDK(tools, { strict: true })
 */
export interface ToAISDKOptions {
  /**
   * Declare each tool in strict mode (`strict: true`, read by `@ai-sdk/openai` per tool), its schema in the
   * form strict mode accepts; the model's `null` for an optional argument is read as absent before the
   * arguments are checked. A tool strict mode cannot take keeps its schema, `strict: false`, and a warning.
   *
   * @default false
   */
  strict?: boolean
  /** Where the warning about a tool declared without strict mode goes. */
  logger?: Logger
}

/**
 * Renders tools as an AI SDK `ToolSet` for `generateText`, `streamText` or an `Agent`. Each tool carries its
 * JSON Schema through `jsonSchema()` and runs `Tool.execute` with the AI SDK's `abortSignal` and
 * `toolCallId`. A successful result reaches the model as text; an `isError` result as an error
 * (`error-text` for the model, `output-error` in the UI), so the model can read it and recover. Arguments
 * that do not fit the schema never reach the tool: they fail the same way, saying which argument and why.
 * A tool that needs approval carries the AI SDK's own `needsApproval` (a function of the input where the
 * tool's rule is one), so `generateText` stops with a `tool-approval-request` for it.
 *
 * @param tools - The tools to expose, keyed by their exposed names.
 * @param options - `{ strict: true }` declares them in strict mode.
 * @example
 * const { text } = await generateText({
 *   model: openai('gpt-4.1'),
 *   tools: toAISDK(tk.tools()),
 *   stopWhen: stepCountIs(5),
 *   prompt: 'What is the weather in Chennai?',
 * })
 */
export function toAISDK(tools: readonly Tool[], options: ToAISDKOptions = {}): ToolSet {
  const toolSet: ToolSet = {}
  for (const each of tools) {
    const strict = options.strict === true ? strictCached(each.inputSchema) : undefined
    if (strict?.kind === 'refused') {
      warnAboutSchema(each.inputSchema, notStrictWarning(each.name, strict.reasons), options.logger)
    }
    // A copy, so a provider that rewrites schemas in place (strict mode) cannot reach the tool's own.
    const schema = cloneSchema(strict?.kind === 'strict' ? strict.schema : each.inputSchema)
    const aiTool = tool({
      description: each.description,
      ...approvalFlag(each),
      inputSchema: jsonSchema<Record<string, unknown>>(schema),
      ...(strict === undefined ? {} : { strict: strict.kind === 'strict' }),
      execute: async (input, options) => {
        let args: Record<string, unknown> | string
        try {
          args = checkArgs(each.inputSchema, input ?? {})
        } catch (error) {
          throw new ToolResultError(`Tool "${each.name}" failed: ${errorMessage(error)}`)
        }
        if (typeof args === 'string') throw new ToolResultError(invalidArgsMessage(each.name, args))
        let result: ToolResult
        try {
          // Checked just above: a tool that checks its own arguments is run without checking them again.
          result = await runnerForCheckedArgs(each)(args, {
            toolCallId: options.toolCallId,
            ...(options.abortSignal === undefined ? {} : { signal: options.abortSignal }),
          })
        } catch (error) {
          // A custom tool that breaks the never-throw contract still reads like every other failure.
          throw new ToolResultError(`Tool "${each.name}" failed: ${errorMessage(error)}`)
        }
        if (result.isError) throw new ToolResultError(result.output, result.metadata)
        return result.output
      },
    })
    // A data property even for `__proto__`, which a plain assignment would turn into a prototype change.
    Object.defineProperty(toolSet, each.name, {
      value: aiTool,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return toolSet
}

/** The AI SDK's `needsApproval` for a tool that has a rule; nothing for the others. */
function approvalFlag(each: Tool): { needsApproval?: boolean | ToolNeedsApproval } {
  const rule = each.needsApproval
  if (rule === true) return { needsApproval: true }
  if (typeof rule !== 'function') return {}
  return {
    needsApproval: (input, options) => {
      // Arguments that do not fit are answered with the error by `execute`: nothing runs, nothing to approve.
      const checked = checkArgs(each.inputSchema, input ?? {})
      return typeof checked === 'string' ? false : rule(checked, { toolCallId: options.toolCallId })
    },
  }
}

type ToolNeedsApproval = (input: unknown, options: { toolCallId: string }) => boolean | PromiseLike<boolean>

function cloneSchema(schema: Tool['inputSchema']): JSONSchema7 {
  let copy: unknown = schema
  try {
    copy = structuredClone(schema)
  } catch {
    // Not plain data (a hand-written Tool whose schema is not JSON): used as it is rather than failing the whole tool set.
  }
  // A Tool's inputSchema is plain JSON Schema with an object root; JSONSchema7 is the AI SDK's name for that.
  return copy as JSONSchema7
}
