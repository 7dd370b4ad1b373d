import { capText } from '../shared/cap-text.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import { checkArgs, invalidArgsMessage } from '../tool/check-args.js'
import { errorResult, toolFailed } from '../tool/tool-result.js'
import type { NeedsApproval, Tool, ToolResult } from '../tool/types.js'
import type { CheckedCall, ToolRunner } from './toolkit.js'

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
    return askUnlessNo(rule(args, toolCallId === undefined ? {} : { toolCallId }))
  } catch {
    return true
  }
}

/**
 * A call's approval as its toolkit answers it: whether it waits for a person, and the toolkit's one check
 * of its arguments, which its run takes (`undefined` when the toolkit made none: `execute` checks then).
 */
export interface CallApproval {
  readonly needsApproval: boolean | Promise<boolean>
  readonly checked: CheckedCall | undefined
}

// The answers that carry no check of their own, shared so that the common case allocates nothing.
const RUNS: CallApproval = Object.freeze({ needsApproval: false, checked: undefined })
const ASKS: CallApproval = Object.freeze({ needsApproval: true, checked: undefined })

/**
 * Whether a call waits for a person's approval, asked of any toolkit (one of toolnexus's or one made
 * elsewhere) the same way by the loop and by the MCP server: through `checkCall` when the toolkit has it
 * (its arguments checked once, for the approval and the run), else `needsApproval`. Only a plain "no"
 * lets the call run: a check that throws or rejects, or answers anything truthy, asks a person.
 *
 * @example
 * const approval = callNeedsApproval(toolkit, 'send_money', { amount: 500 }, 'call_1')
 * if (!(await approval.needsApproval)) await (approval.checked?.execute() ?? toolkit.execute('send_money', { amount: 500 }))
 */
export function callNeedsApproval(
  toolkit: Pick<ToolRunner, 'needsApproval' | 'checkCall'>,
  name: string,
  args: Record<string, unknown>,
  toolCallId: string | undefined,
): CallApproval {
  let checked: CheckedCall | undefined
  try {
    if (toolkit.checkCall === undefined) {
      const verdict = askUnlessNo(toolkit.needsApproval(name, args, toolCallId))
      return verdict === false ? RUNS : verdict === true ? ASKS : { needsApproval: verdict, checked }
    }
    checked = toolkit.checkCall(name, args, toolCallId)
    if (checked === undefined) return RUNS
    return { needsApproval: askUnlessNo(checked.needsApproval), checked }
  } catch {
    // A toolkit that cannot answer cannot say the call is safe.
    return checked === undefined ? ASKS : { needsApproval: true, checked }
  }
}

/** An approval check's answer as a verdict: a rejection, or any truthy value, asks. */
function askUnlessNo(verdict: unknown): boolean | Promise<boolean> {
  if (isPromiseLike(verdict)) return Promise.resolve(verdict).then(Boolean, () => true)
  return Boolean(verdict)
}
