import { errorMessage, errorResult } from '../tool/tool-result.js'
import type { Tool, ToolContext, ToolResult } from '../tool/types.js'
import { runnerForCheckedArgs } from '../tool/validating-tool.js'

/** How a toolkit bounds one tool call. */
export interface RunToolLimits {
  /** Milliseconds a call may take before it is answered with an error and its signal aborted. */
  timeoutMs: number
  /** Characters of output kept; the rest is cut with a visible marker. */
  maxOutputChars: number
}

/**
 * Runs one tool, whose arguments the caller has checked against its schema, with a deadline, the
 * caller's signal and an output cap. Always resolves: a tool that throws (breaking the `Tool` contract),
 * hangs past its deadline, or is aborted yields an error result, and a tool that ignores its signal
 * cannot hold the caller.
 */
export async function runTool(
  tool: Tool,
  args: Record<string, unknown>,
  context: ToolContext,
  limits: RunToolLimits,
): Promise<ToolResult> {
  const timeoutMs = context.timeoutMs ?? limits.timeoutMs
  const controller = new LazyAbortController()
  const outer = context.signal
  if (outer?.aborted) return errorResult(`Tool "${tool.name}" was not run: the call was aborted.`)

  let settle: (result: ToolResult) => void = () => {}
  const stopped = new Promise<ToolResult>((resolve) => {
    settle = resolve
  })
  const onAbort = (): void => {
    controller.abort(outer?.reason)
    settle(errorResult(`Tool "${tool.name}" was aborted.`))
  }
  outer?.addEventListener('abort', onAbort, { once: true })
  const timer =
    Number.isFinite(timeoutMs) && timeoutMs > 0
      ? setTimeout(() => {
          controller.abort(new Error(`timed out after ${timeoutMs} ms`))
          settle(errorResult(`Tool "${tool.name}" timed out after ${timeoutMs} ms.`))
        }, timeoutMs)
      : undefined

  const running = Promise.resolve()
    .then(() =>
      runnerForCheckedArgs(tool)(args, {
        ...context,
        timeoutMs,
        get signal() {
          return controller.signal
        },
      }),
    )
    .catch((error: unknown) => errorResult(`Tool "${tool.name}" failed: ${errorMessage(error)}`))
  try {
    return capOutput(await Promise.race([running, stopped]), limits.maxOutputChars)
  } finally {
    clearTimeout(timer)
    outer?.removeEventListener('abort', onAbort)
  }
}

function capOutput(result: ToolResult, maxOutputChars: number): ToolResult {
  if (typeof result?.output !== 'string') {
    return errorResult('The tool returned no ToolResult (expected { output: string, isError: boolean }).')
  }
  if (result.output.length <= maxOutputChars) return result
  const dropped = result.output.length - maxOutputChars
  return {
    ...result,
    output: `${result.output.slice(0, maxOutputChars)}\n…[output truncated: ${dropped} more characters]`,
    metadata: { ...result.metadata, truncated: true, originalLength: result.output.length },
  }
}

/**
 * An `AbortController` made only when its signal is first read. Node makes a controller in microseconds,
 * which adds up on a path run for every tool call, and most tools never read their signal.
 */
class LazyAbortController {
  #controller: AbortController | undefined
  #aborted = false
  #reason: unknown

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController()
      if (this.#aborted) this.#controller.abort(this.#reason)
    }
    return this.#controller.signal
  }

  abort(reason: unknown): void {
    if (this.#aborted) return
    this.#aborted = true
    this.#reason = reason
    this.#controller?.abort(reason)
  }
}
