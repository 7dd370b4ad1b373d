import { capText, DEFAULT_MAX_OUTPUT_CHARS } from '../shared/cap-text.js'
import { checkArgs, invalidArgsMessage } from './check-args.js'
import { errorResult, toolFailed } from './tool-result.js'
import type { Tool, ToolContext, ToolResult } from './types.js'

/** Runs a tool with arguments already checked against its schema. */
export type CheckedArgsRunner = (args: Record<string, unknown>, context: ToolContext) => Promise<ToolResult>

// The toolkit checks arguments before it calls a tool; for tools made here it calls the runner instead of
// `execute`, so the arguments are not checked twice on the hot path.
const checkedArgsRunners = new WeakMap<Tool, CheckedArgsRunner>()

/** What `validatingTool` takes: the tool's shape, its body, and the cap on its invalid-argument text. */
export type ValidatingToolParts = Omit<Tool, 'execute'> & {
  run: CheckedArgsRunner
  /** Characters of the invalid-argument text kept. @default 100000 */
  maxOutputChars?: number
}

/**
 * Makes a tool whose `execute` checks the arguments with `checkArgs` (an error result naming the argument
 * when they do not fit) and then calls `run`. `defineTool` and `httpTool` are built on it.
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
      return run(checked, context)
    },
  }
  checkedArgsRunners.set(tool, run)
  return tool
}

/**
 * The way to run `tool` once its arguments are known to fit its schema: the body of a tool made by
 * {@link validatingTool} without its own check, or `tool.execute` for any other tool.
 *
 * @example
 * const checked = checkArgs(tool.inputSchema, args)
 * if (typeof checked !== 'string') await runnerForCheckedArgs(tool)(checked, {})
 */
export function runnerForCheckedArgs(tool: Tool): CheckedArgsRunner {
  return checkedArgsRunners.get(tool) ?? ((args, context) => tool.execute(args, context))
}
