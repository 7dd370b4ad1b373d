import { capStrings, capText } from '../shared/cap-text.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import { CallContext, LazyAbortController } from '../tool/call-context.js'
import { capMedia } from '../tool/tool-media.js'
import { errorResult, toolFailed } from '../tool/tool-result.js'
import type { Tool, ToolContext, ToolResult } from '../tool/types.js'
import { runnerForCheckedArgs } from '../tool/validating-tool.js'

/** The time one tool call may take when the toolkit is given no `toolTimeoutMs`: one minute. */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000

/** How a toolkit bounds one tool call. */
export interface RunToolLimits {
  /** Milliseconds a call may take before it is answered with an error and its signal aborted. */
  timeoutMs: number
  /** Characters of output kept; the rest is cut with a visible marker. */
  maxOutputChars: number
  /** Bytes of media (images, audio) one result may carry; media past it are left out with a note. */
  maxMediaBytes: number
}

/**
 * Runs one tool, whose arguments the caller has checked against its schema, with a deadline, the
 * caller's signal and an output cap. Always resolves: a tool that throws (breaking the `Tool` contract),
 * hangs past its deadline, or is aborted yields an error result, and a tool that ignores its signal
 * cannot hold the caller.
 */
export function runTool(
  tool: Tool,
  args: Record<string, unknown>,
  context: ToolContext,
  limits: RunToolLimits,
): Promise<ToolResult> {
  const answer = startTool(
    tool,
    args,
    limits,
    context.toolCallId,
    context.idempotencyKey,
    context.signal,
    context.timeoutMs ?? limits.timeoutMs,
    context,
  )
  return answer instanceof Promise ? answer : Promise.resolve(answer)
}

/**
 * {@link runTool} for a caller that takes a result as it is: a tool that answers synchronously is
 * answered at once, with nothing to wait for (no promise, no deadline, no abort listener: nothing could
 * have timed it out or aborted it but its own code, which is checked); a tool that answers with a promise
 * gets its deadline, counted from its call, and the caller's abort. Never throws; a promise it hands back
 * never rejects. Positional, not an options object: the loop runs this for every tool call.
 *
 * @example
 * const answer = startTool(tool, args, limits, 'call_1', undefined, undefined, limits.timeoutMs, undefined)
 * const result = answer instanceof Promise ? await answer : answer
 */
export function startTool(
  tool: Tool,
  args: Record<string, unknown>,
  limits: RunToolLimits,
  toolCallId: string | undefined,
  idempotencyKey: string | undefined,
  outer: AbortSignal | undefined,
  timeoutMs: number,
  /** The caller's listeners (an MCP gateway's `onProgress`, `onLog`, `inputRound`), when it has any. */
  reports: Pick<ToolContext, 'onProgress' | 'onLog' | 'inputRound'> | undefined,
): ToolResult | Promise<ToolResult> {
  const { name } = tool
  if (outer?.aborted) return errorResult(`Tool "${name}" was not run: the call was aborted.`)
  const controller = new LazyAbortController()
  // The deadline counts from here; it is set only once the tool hands back a promise.
  const started = performance.now()
  let running: Promise<ToolResult> | ToolResult
  try {
    running = runnerForCheckedArgs(tool)(
      args,
      new CallContext(toolCallId, timeoutMs, controller, outer !== undefined, idempotencyKey, reports),
    )
  } catch (error) {
    // A tool whose execute throws instead of returning a promise (breaking the `Tool` contract).
    return outer?.aborted ? abortedCall(name, controller, outer) : toolFailed(name, error)
  }
  if (!isPromiseLike(running)) {
    // The caller aborted while the tool ran (its own code did): the abort wins, as it would have.
    if (outer?.aborted) return abortedCall(name, controller, outer)
    try {
      return capOutput(running, limits)
    } catch (error) {
      return toolFailed(name, error)
    }
  }
  const pending = running
  if (outer?.aborted) {
    Promise.resolve(pending).then(ignore, ignore)
    return abortedCall(name, controller, outer)
  }
  // One promise, settled by whichever comes first: the tool, its deadline, or the caller's abort.
  return new Promise<ToolResult>((resolve) => {
    const call = new ToolCall(name, limits, resolve, outer, controller)
    call.startDeadline(timeoutMs, performance.now() - started)
    Promise.resolve(pending).then(call.done, call.failed)
  })
}

/** A call whose caller aborted while it ran: its signal aborted too, and the answer that says so. */
function abortedCall(name: string, controller: LazyAbortController, outer: AbortSignal): ToolResult {
  controller.abort(outer.reason)
  return errorResult(`Tool "${name}" was aborted.`)
}

function ignore(): void {}

// One running call: settled once, by the tool, its deadline or the caller's abort. Its methods are the
// callbacks themselves, so a call makes no closure of its own beyond them.
class ToolCall {
  readonly #name: string
  readonly #limits: RunToolLimits
  readonly #resolve: (result: ToolResult) => void
  readonly #outer: AbortSignal | undefined
  readonly #controller: LazyAbortController
  #settled = false
  #timer: ReturnType<typeof setTimeout> | undefined
  // Made only when the caller can abort the call.
  #onAbort: (() => void) | undefined

  constructor(
    name: string,
    limits: RunToolLimits,
    resolve: (result: ToolResult) => void,
    outer: AbortSignal | undefined,
    controller: LazyAbortController,
  ) {
    this.#name = name
    this.#limits = limits
    this.#resolve = resolve
    this.#outer = outer
    this.#controller = controller
    if (outer !== undefined) {
      this.#onAbort = () => {
        this.#controller.abort(outer.reason)
        this.#settle(errorResult(`Tool "${this.#name}" was aborted.`))
      }
      outer.addEventListener('abort', this.#onAbort, { once: true })
    }
  }

  /** Starts the deadline of a call made `elapsed` ms ago (the tool's own synchronous work, usually none). */
  startDeadline(timeoutMs: number, elapsed: number): void {
    if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) return
    // Less than a millisecond of the tool's own work is not taken off: Node's timers count whole ms.
    const wait = elapsed < 1 ? timeoutMs : Math.max(1, timeoutMs - elapsed)
    this.#timer = setTimeout(timedOut, wait, this, timeoutMs)
  }

  readonly done = (result: ToolResult): void => {
    if (!this.#settled) this.#settle(capOutput(result, this.#limits))
  }

  readonly failed = (error: unknown): void => {
    if (!this.#settled) this.#settle(toolFailed(this.#name, error))
  }

  timeOut(timeoutMs: number): void {
    this.#controller.abort(new Error(`timed out after ${timeoutMs} ms`))
    this.#settle(errorResult(`Tool "${this.#name}" timed out after ${timeoutMs} ms.`))
  }

  #settle(result: ToolResult): void {
    if (this.#settled) return
    this.#settled = true
    clearTimeout(this.#timer)
    if (this.#onAbort !== undefined) this.#outer?.removeEventListener('abort', this.#onAbort)
    this.#resolve(result)
  }
}

function timedOut(call: ToolCall, timeoutMs: number): void {
  call.timeOut(timeoutMs)
}

function capOutput(given: ToolResult, limits: RunToolLimits): ToolResult {
  if (typeof given?.output !== 'string') {
    return errorResult('The tool returned no ToolResult (expected { output: string, isError: boolean }).')
  }
  const result = given.media === undefined ? given : capMedia(given, limits.maxMediaBytes)
  const { maxOutputChars } = limits
  if (result.output.length <= maxOutputChars) return result
  return {
    ...result,
    output: capText(result.output, maxOutputChars),
    // What the result keeps beside its output (an MCP result's `content`) is bounded like the output.
    metadata: {
      ...(capStrings(result.metadata, maxOutputChars) as Record<string, unknown> | undefined),
      truncated: true,
      originalLength: result.output.length,
    },
  }
}
