import { capStrings, capText } from '../shared/cap-text.js'
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
  const timeoutMs = context.timeoutMs ?? limits.timeoutMs
  const outer = context.signal
  if (outer?.aborted) {
    return Promise.resolve(errorResult(`Tool "${tool.name}" was not run: the call was aborted.`))
  }
  const controller = new LazyAbortController()
  // One promise, settled by whichever comes first: the tool, its deadline, or the caller's abort.
  return new Promise<ToolResult>((resolve) => {
    const call = new ToolCall(tool.name, limits, resolve, outer, controller)
    let running: Promise<ToolResult> | ToolResult
    try {
      call.startDeadline(timeoutMs)
      running = runnerForCheckedArgs(tool)(
        args,
        new CallContext(
          context.toolCallId,
          timeoutMs,
          controller,
          outer !== undefined,
          context.idempotencyKey,
          context,
        ),
      )
    } catch (error) {
      // A tool whose execute throws instead of returning a promise (breaking the `Tool` contract).
      call.failed(error)
      return
    }
    Promise.resolve(running).then(call.done, call.failed)
  })
}

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

  startDeadline(timeoutMs: number): void {
    if (Number.isFinite(timeoutMs) && timeoutMs > 0)
      this.#timer = setTimeout(timedOut, timeoutMs, this, timeoutMs)
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
