import type { ApprovalGuard } from '../approvals/approval-guard.js'
import type { RunStateKeys } from '../approvals/run-state.js'
import type { LoopTelemetry } from '../contracts/run-telemetry.js'
import type { Hooks, RunEvent } from '../contracts/run-types.js'
import type { Transport } from '../contracts/transport.js'
import type { DurableSteps } from '../durable/durable-runner.js'
import type { ToolRunner } from '../toolkit/toolkit.js'
import type { RetryPolicy } from './retry.js'

/** What the engine needs besides the transport: the client's settings. */
export interface LoopSettings<Message> {
  system: string | undefined
  maxTurns: number
  hooks: Hooks<Message>
  retry: RetryPolicy
  timeoutMs: number | undefined
  toolConcurrency: number
  /** How long a run that cannot suspend waits on an MCP task; the toolkit's tool timeout when unset. */
  maxTaskWaitMs: number | undefined
  /** Traces every run, model call and tool call; loaded on demand, so its promise until then. */
  telemetry?: LoopTelemetry | PromiseLike<LoopTelemetry> | undefined
  /** How suspended runs are sealed and checked (the client's transport, key and expiry). */
  runState: RunStateKeys
  /** Refuses to hand out a replayable run, and claims an answered one once. */
  approvalGuard: ApprovalGuard
}

/** One run's input. */
export interface LoopInput<Message> {
  /** The transport, or its promise while a model id is being resolved. */
  transport: Transport<Message> | PromiseLike<Transport<Message>>
  settings: LoopSettings<Message>
  /** The earlier conversation, kept as is. */
  history: readonly Message[]
  /** The new user turn: text, or messages to append after the history. */
  prompt: string | readonly Message[]
  toolkit: ToolRunner | undefined
  /** This run's own system prompt, after the client's `system` (`RunOptions.system`). */
  system?: string | undefined
  signal: AbortSignal | undefined
  /** Aborted by a stream whose consumer left early. */
  stop?: AbortSignal
  /**
   * Tools declared to the model by someone else, who runs them: a turn that calls one ends the run once
   * the turn's other calls are answered, and those calls stay unanswered for their owner to answer.
   */
  externalTools?: ReadonlySet<string>
  /**
   * `generate` uses the transport's non-streaming call and yields no events (the result is the return
   * value); `stream` uses its streaming call and yields every event.
   */
  mode: 'generate' | 'stream'
  /**
   * Goes on with a suspended run instead of starting one (`history` and `prompt` are then unused): the
   * state and the answers. The run is claimed before anything of it runs.
   */
  resume?: { state: unknown; approvals: unknown }
  /**
   * The run's id: the start of every call's idempotency key (and of its approval ids). Without it a run
   * draws a random one when it first needs it; a resumed run goes on with its state's.
   */
  runId?: string | undefined
  /**
   * Makes the run durable: each model call, each tool call and a suspension are steps recorded by the
   * engine, so a replay takes the same path. `emit` gets a streamed model call's text as it comes (the
   * step's record keeps only the whole turn).
   */
  durable?: { steps: DurableSteps; emit?: ((event: RunEvent<Message>) => void) | undefined } | undefined
  /**
   * Waits for a call that runs on its MCP server as a task past its `taskWaitMs`, asking the server again
   * until the task settles, the run is aborted or `maxTaskWaitMs` passes, instead of suspending the run on
   * it: for callers that cannot resume a run (the provider form). A durable run always waits, inside the
   * call's step.
   */
  waitOnTasks?: boolean
}
