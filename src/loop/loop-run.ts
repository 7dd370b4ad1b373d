import type { ResumedRun } from '../approvals/open-resume.js'
import type { RunTelemetry } from '../contracts/run-telemetry.js'
import type { Hooks, ToolCallRecord, Usage } from '../contracts/run-types.js'
import type { ModelTurn, Transport, TransportMemo } from '../contracts/transport.js'
import type { ToolResult } from '../tool/types.js'
import type { ToolRunner } from '../toolkit/toolkit.js'
import type { LoopInput, LoopSettings } from './loop-input.js'
import type { PreparedCall } from './prepare-call.js'
import type { RunScope } from './run-scope.js'
import type { SearchSession } from './search-session.js'

/** One run as its turns see it: what it was given, what it has said so far, and where it stands. */
export interface LoopRun<Message> {
  input: LoopInput<Message>
  settings: LoopSettings<Message>
  toolkit: ToolRunner | undefined
  /** The settings' hooks: with the toolkit, scope and search, what answering a call needs. */
  hooks: Hooks<Message>
  /** The transport, traced when the run is. */
  transport: Transport<Message>
  scope: RunScope
  /** Events are built and yielded for streams alone. */
  streaming: boolean
  trace: RunTelemetry | undefined
  /** With tool search on, the tools declared start small and grow. */
  search: SearchSession | undefined
  /** Approval checks cost nothing unless the toolkit can ask for them (a custom Toolkit may not). */
  approvals: Pick<ToolRunner, 'needsApproval' | 'checkCall'> | undefined
  system: string | undefined
  messages: Message[]
  records: ToolCallRecord[]
  usage: Usage
  /** What the transport keeps between turns (the converted transcript). */
  memo: TransportMemo
  turn: number
  last: ModelTurn<Message> | undefined
  /** Kept over the run: a later turn that waits again continues the same run's approval ids. */
  runId: string | undefined
  /** The start of every call's idempotency key: drawn only when a tool is first called. */
  keyPrefix: string | undefined
  /** The approval ids answered in earlier parts of the run. */
  answeredIds: readonly string[]
  /** Whether the last turn called a tool that its owner outside the loop answers. */
  handedOut: boolean
  /** A resumed run starts inside the turn it stopped in, with that turn's calls, some already answered. */
  resumed: ResumedRun | undefined
  /** How this run answers a fresh turn's calls: made at its first call, the same for every turn. */
  answer?: CallAnswerer<Message> | undefined
}

/** How a run answers one call, the run given as the call's context (a plain run needs no closure). */
export type CallAnswerer<Message> = (
  call: PreparedCall,
  run: LoopRun<Message>,
) => ToolResult | Promise<ToolResult>
