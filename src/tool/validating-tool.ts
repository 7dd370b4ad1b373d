import { capText, DEFAULT_MAX_OUTPUT_CHARS } from '../shared/cap-text.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import { checkArgs, invalidArgsMessage } from './check-args.js'
import { errorResult, toolFailed } from './tool-result.js'
import type { Tool, ToolContext, ToolResult } from './types.js'

/**
 * Runs a tool with arguments already checked against its schema: its result, or the promise of it. A body
 * that answers synchronously may hand the result back as it is (`defineTool`'s does), so that a caller
 * that can take it (`runTool`) has nothing to wait for.
 */
export type CheckedArgsRunner = (
  args: Record<string, unknown>,
  context: ToolContext,
) => ToolResult | Promise<ToolResult>

// A tool made here carries its body without the check under this key, beside the `execute` and the schema
// it was made with. Not enumerable: a `{ ...tool }` copy (which may change the schema) leaves it behind.
const UNCHECKED_RUN = Symbol('toolnexus.uncheckedRun')

interface UncheckedRun {
  run: CheckedArgsRunner
  execute: Tool['execute']
  inputSchema: Tool['inputSchema']
}

type ValidatingTool = Tool & { readonly [UNCHECKED_RUN]?: UncheckedRun }

/** What `validatingTool` takes: the tool's shape, its body, and the cap on its invalid-argument text. */
export type ValidatingToolParts = Omit<Tool, 'execute'> & {
  run: CheckedArgsRunner
  /** Characters of the invalid-argument text kept. @default 100000 */
  maxOutputChars?: number
}

/**
 * Makes a tool whose `execute` checks the arguments with `checkArgs` (an error result naming the argument
 * when they do not fit) and then calls `run`. `defineTool` and `httpTool` are built on it. The tool also
 * keeps `run` (under a non-enumerable symbol key), which {@link runnerForCheckedArgs} hands to a caller
 * that has checked the arguments itself.
 *
 * @example
 * const ping = validatingTool({
 *   name: 'ping', description: 'Health check', inputSchema: { type: 'object', properties: {} }, source: 'custom',
 *   run: async () => ({ output: 'pong', isError: false }),
 * })
 */
export function validatingTool(parts: ValidatingToolParts): Tool {
  const { run, maxOutputChars = DEFAULT_MAX_OUTPUT_CHARS, ...shape } = parts
  const tool: Tool = {
    ...shape,
    execute(args: Record<string, unknown>, context: ToolContext = {}): Promise<ToolResult> {
      let checked: Record<string, unknown> | string
      try {
        checked = checkArgs(shape.inputSchema, args)
      } catch (error) {
        // Arguments no check can read (a getter that throws, a cycle): an answer, never a rejection.
        return Promise.resolve(toolFailed(shape.name, error))
      }
      if (typeof checked === 'string') {
        return Promise.resolve(errorResult(capText(invalidArgsMessage(shape.name, checked), maxOutputChars)))
      }
      const ran = run(checked, context)
      return isPromiseLike(ran) ? (ran as Promise<ToolResult>) : Promise.resolve(ran)
    },
  }
  const unchecked: UncheckedRun = { run, execute: tool.execute, inputSchema: shape.inputSchema }
  Object.defineProperty(tool, UNCHECKED_RUN, { value: unchecked })
  return tool
}

/**
 * The way to run `tool` once its arguments are known to fit its schema: the body of a tool made by
 * {@link validatingTool} without its own check, while its `execute` and `inputSchema` are the ones it was
 * made with; else `tool.execute` (a tool changed in place, a copy, any other tool), which checks again.
 *
 * @example
 * const checked = checkArgs(tool.inputSchema, args)
 * if (typeof checked !== 'string') await runnerForCheckedArgs(tool)(checked, {})
 */
export function runnerForCheckedArgs(tool: Tool): CheckedArgsRunner {
  const unchecked = (tool as ValidatingTool)[UNCHECKED_RUN]
  if (
    unchecked !== undefined &&
    unchecked.execute === tool.execute &&
    unchecked.inputSchema === tool.inputSchema
  )
    return unchecked.run
  return (args, context) => tool.execute(args, context)
}
