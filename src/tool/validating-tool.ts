import { errorResult } from './tool-result.js'
import type { Tool, ToolContext, ToolResult } from './types.js'
import { validateArgs } from './validate-args.js'

/** Runs a tool with arguments already checked against its schema. */
export type CheckedArgsRunner = (args: Record<string, unknown>, context: ToolContext) => Promise<ToolResult>

// The toolkit checks arguments before it calls a tool; for tools made here it calls the runner instead of
// `execute`, so the arguments are not checked twice on the hot path.
const checkedArgsRunners = new WeakMap<Tool, CheckedArgsRunner>()

/**
 * Makes a tool whose `execute` checks the arguments against `inputSchema` (an error result naming the
 * argument when they do not fit) and then calls `run`. `defineTool` and `httpTool` are built on it.
 *
 * @example
 * const ping = validatingTool({
 *   name: 'ping', description: 'Health check', inputSchema: { type: 'object', properties: {} }, source: 'custom',
 *   run: async () => ({ output: 'pong', isError: false }),
 * })
 */
export function validatingTool(parts: Omit<Tool, 'execute'> & { run: CheckedArgsRunner }): Tool {
  const { run, ...shape } = parts
  const tool: Tool = {
    ...shape,
    execute(args: Record<string, unknown>, context: ToolContext = {}): Promise<ToolResult> {
      const problem = validateArgs(shape.inputSchema, args)
      if (problem !== undefined) {
        return Promise.resolve(errorResult(`Invalid arguments for tool "${shape.name}": ${problem}`))
      }
      return run(args, context)
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
 * if (validateArgs(tool.inputSchema, args) === undefined) await runnerForCheckedArgs(tool)(args, {})
 */
export function runnerForCheckedArgs(tool: Tool): CheckedArgsRunner {
  return checkedArgsRunners.get(tool) ?? ((args, context) => tool.execute(args, context))
}
