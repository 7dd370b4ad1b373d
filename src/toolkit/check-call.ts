import { capText } from '../shared/cap-text.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import { checkArgs, invalidArgsMessage } from '../tool/check-args.js'
import { errorResult, toolFailed } from '../tool/tool-result.js'
import type { NeedsApproval, Tool, ToolResult } from '../tool/types.js'

/**
 * Arguments that cannot run: the answer their call gets instead.
 *
 * @example
 * new RefusedArgs(errorResult('Invalid arguments for tool "add": a: required argument is missing'))
 */
export class RefusedArgs {
  constructor(readonly answer: ToolResult) {}
}

/**
 * The one check of a call's arguments against its tool's schema, for both its approval check and its run:
 * the arguments to run with, or the error result the call is answered with (the problem named, under
 * `name`, capped at `maxOutputChars`).
 *
 * @example
 * const checked = checkCallArgs(tool, 'get_weather', { city: 'Pune' }, 100_000)
 * if (!(checked instanceof RefusedArgs)) await runTool(tool, checked, {}, limits)
 */
export function checkCallArgs(
  tool: Tool,
  name: string,
  args: Record<string, unknown>,
  maxOutputChars: number,
): Record<string, unknown> | RefusedArgs {
  let checked: Record<string, unknown> | string
  try {
    checked = checkArgs(tool.inputSchema, args)
  } catch (error) {
    // Arguments no check can read (a getter that throws, a cycle): an answer, never a rejection.
    return new RefusedArgs(toolFailed(name, error))
  }
  if (typeof checked !== 'string') return checked
  return new RefusedArgs(errorResult(capText(invalidArgsMessage(name, checked), maxOutputChars)))
}

/**
 * Whether checked arguments wait for a person under `rule`. A rule that cannot decide (it throws or
 * rejects) asks a person rather than letting the call through.
 *
 * @example
 * approvalVerdict(({ amount }) => Number(amount) > 100, { amount: 500 }, 'call_1') // true
 */
export function approvalVerdict(
  rule: NeedsApproval,
  args: Record<string, unknown>,
  toolCallId: string | undefined,
): boolean | Promise<boolean> {
  if (typeof rule !== 'function') return rule
  try {
    const verdict = rule(args, toolCallId === undefined ? {} : { toolCallId })
    if (isPromiseLike(verdict)) return Promise.resolve(verdict).then(Boolean, () => true)
    return Boolean(verdict)
  } catch {
    return true
  }
}
