import type { JSONSchema7 } from '@ai-sdk/provider'
import { jsonSchema, type ToolSet, tool } from 'ai'
import { ToolResultError } from '../errors.js'
import type { Logger } from '../shared/logger.js'
import { checkArgs, invalidArgsMessage } from '../tool/check-args.js'
import { ownNamesByGeminiName, sendsNamesToGemini, sentToGemini } from '../tool/gemini-tool-names.js'
import { errorMessage } from '../tool/tool-result.js'
import type { Tool, ToolResult } from '../tool/types.js'
import { runnerForCheckedArgs } from '../tool/validating-tool.js'
import { notStrictWarning, strictCached } from './to-openai.js'
import { warnAboutSchema } from './warn-about-schema.js'

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
  /**
   * The provider the tool set goes to: `'google'`, or the model's own provider name (`model.provider`, such
   * as `'google.generative-ai'` or `'google.vertex.chat'`). A tool set is keyed by name, and the Google
   * providers declare each key to Gemini as the function's name; Gemini refuses a name that starts with a
   * digit or `-`, so for Google such a tool is keyed by the name Gemini takes (`1password_get_item` →
   * `_1password_get_item`) and the call under it runs the tool. The AI SDK reports the call under that key.
   *
   * @default unset: every tool is keyed by its own name
   */
  provider?: string
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
 * @param tools - The tools to expose, keyed by their exposed names (for Gemini, by names Gemini takes).
 * @param options - `{ strict: true }` declares them in strict mode; `{ provider: 'google' }` keys them for Gemini.
 * @example
 * const { text } = await generateText({
 *   model: openai('gpt-4.1'),
 *   tools: toAISDK(tk.tools()),
 *   stopWhen: stepCountIs(5),
 *   prompt: 'What is the weather in Chennai?',
 * })
 * const forGemini = toAISDK(tk.tools(), { provider: 'google' }) // { _1password_get_item, … }
 */
export function toAISDK(tools: readonly Tool[], options: ToAISDKOptions = {}): ToolSet {
  const toolSet: ToolSet = {}
  const renamed =
    options.provider !== undefined && sendsNamesToGemini(options.provider)
      ? ownNamesByGeminiName(tools)
      : undefined
  for (const each of tools) {
    const strict = options.strict === true ? strictCached(each.inputSchema) : undefined
    if (strict?.kind === 'refused') {
      warnAboutSchema(each.inputSchema, notStrictWarning(each.name, strict.reasons), options.logger)
    }
    const declared = strict?.kind === 'strict' ? strict.schema : each.inputSchema
    const parts = partsOf(each)
    // Built whole, the optional fields added after: a spread per tool is most of the time at 1,000 tools.
    const aiTool: ToolSet[string] = tool({
      description: each.description,
      // A copy, made when the AI SDK first reads it, so a provider that rewrites schemas in place (strict
      // mode) cannot reach the tool's own.
      inputSchema: jsonSchema<Record<string, unknown>>(() => cloneSchema(declared)),
      execute: parts.execute,
    })
    if (parts.needsApproval !== undefined) aiTool.needsApproval = parts.needsApproval
    if (strict !== undefined) aiTool.strict = strict.kind === 'strict'
    const key = renamed === undefined ? each.name : sentToGemini(each.name, renamed)
    // A data property even for `__proto__`, which a plain assignment would turn into a prototype change.
    if (key === '__proto__') Object.defineProperty(toolSet, key, ownValue(aiTool))
    else toolSet[key] = aiTool
  }
  return toolSet
}

/** What a tool brings to every tool set it is in: its `execute` and its `needsApproval`. */
interface ToolParts {
  execute: (input: Record<string, unknown>, options: ToolExecutionOptions) => Promise<string>
  needsApproval: boolean | ToolNeedsApproval | undefined
}

type ToolExecutionOptions = { toolCallId: string; abortSignal?: AbortSignal | undefined }

// A tool does not change once it exists: its functions are made once and shared by every tool set.
const toolParts = new WeakMap<Tool, ToolParts>()

function partsOf(each: Tool): ToolParts {
  let parts = toolParts.get(each)
  if (parts === undefined) {
    parts = { execute: executeOf(each), needsApproval: needsApprovalOf(each) }
    toolParts.set(each, parts)
  }
  return parts
}

function executeOf(each: Tool): ToolParts['execute'] {
  return async (input, options) => {
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
  }
}

/** The AI SDK's `needsApproval` for a tool that has a rule; nothing for the others. */
function needsApprovalOf(each: Tool): boolean | ToolNeedsApproval | undefined {
  const rule = each.needsApproval
  if (rule === true) return true
  if (typeof rule !== 'function') return undefined
  return (input, options) => {
    // Arguments that do not fit are answered with the error by `execute`: nothing runs, nothing to approve.
    const checked = checkArgs(each.inputSchema, input ?? {})
    return typeof checked === 'string' ? false : rule(checked, { toolCallId: options.toolCallId })
  }
}

type ToolNeedsApproval = (input: unknown, options: { toolCallId: string }) => boolean | PromiseLike<boolean>

function cloneSchema(schema: Tool['inputSchema']): JSONSchema7 {
  // A Tool's inputSchema is plain JSON Schema with an object root; JSONSchema7 is the AI SDK's name for that.
  const copy = copyPlainData(schema)
  if (copy !== NOT_PLAIN) return copy as JSONSchema7
  try {
    return structuredClone(schema) as JSONSchema7
  } catch {
    // Not plain data (a hand-written Tool whose schema is not JSON): used as it is rather than failing the whole tool set.
    return schema as JSONSchema7
  }
}

const NOT_PLAIN: unique symbol = Symbol('not plain data')

// Objects and arrays of JSON values, copied many times faster than `structuredClone` copies them; anything
// else (a Date, a Map, a function, a cycle) is left to `structuredClone`.
function copyPlainData(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return typeof value === 'function' ? NOT_PLAIN : value
  // Deeper than any schema a tool declares: most likely a cycle.
  if (depth > 200) return NOT_PLAIN
  if (Array.isArray(value)) {
    const copy: unknown[] = []
    for (const item of value) {
      const itemCopy = copyPlainData(item, depth + 1)
      if (itemCopy === NOT_PLAIN) return NOT_PLAIN
      copy.push(itemCopy)
    }
    return copy
  }
  const prototype: unknown = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    const entry = copyPlainData((value as Record<string, unknown>)[key], depth + 1)
    if (entry === NOT_PLAIN) return NOT_PLAIN
    // A data property even for `__proto__`, which an assignment would turn into a prototype change.
    if (key === '__proto__') Object.defineProperty(copy, key, ownValue(entry))
    else copy[key] = entry
  }
  return copy
}

function ownValue(value: unknown): PropertyDescriptor {
  return { value, enumerable: true, writable: true, configurable: true }
}
