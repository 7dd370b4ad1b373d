import type { ToolResult } from '../tool/types.js'
import type { ToolRunner } from '../toolkit/toolkit.js'
import type { RunResult } from './run-types.js'
import type { ModelToolCall, Transport } from './transport.js'

/**
 * What the loop reports to a tracing backend, when the client has one. The loop knows nothing of
 * OpenTelemetry: `createClient` loads the implementation only when `telemetry` is set, and a run without
 * it takes none of these paths.
 *
 * @example
 * const run = telemetry.startRun({ model: transport.model, toolkit, system, prompt: 'Hi' })
 * const traced = run.traceTransport(transport)
 */
export interface LoopTelemetry {
  /** Called once as a run starts, in the caller's context (a span active there is the run's parent). */
  startRun(info: {
    model: Transport<unknown>['model']
    toolkit: ToolRunner | undefined
    system: string | undefined
    prompt: string | readonly unknown[]
  }): RunTelemetry
}

/** One run's trace: the run itself, each model call and each tool call. */
export interface RunTelemetry {
  /** The same transport, with every model call (each attempt of a retried one) traced under the run. */
  traceTransport<Message>(transport: Transport<Message>): Transport<Message>
  /**
   * Answers one tool call inside its own span under the run; `args` gives the arguments the call's record
   * shows once it is answered (a hook may have replaced them).
   */
  traceToolCall(
    call: ModelToolCall,
    args: () => unknown,
    answer: () => Promise<ToolResult>,
  ): Promise<ToolResult>
  /** The run completed. */
  end(result: RunResult<unknown>): void
  /** The run failed or was stopped; a no-op once it ended. */
  fail(error: unknown): void
}
