// The messages between the coordinator and its child processes (workers, the scale bench).

import type { ToolVariant } from '../impls/types.js'

/** What a worker is told on its command line. */
export interface WorkerConfig {
  /**
   * The implementations this process hosts, by id: usually one. The target ratios put toolnexus and the
   * row it is compared with in one process (an id may repeat: two instances), so both share its luck.
   */
  implementations: string[]
  variant: ToolVariant
  openaiBaseUrl: string
  geminiBaseUrl: string
  mcpServer: { command: string; args: string[] }
}

export type WorkerCommand =
  /** `count` runs of the implementation at `slot` (an index into `implementations`, default 0). */
  | { type: 'batch'; count: number; slot?: number }
  /** `count` concurrent runs of the first implementation. */
  | { type: 'concurrent'; count: number }
  | { type: 'memory' }
  | { type: 'close' }

export type WorkerReply =
  | { type: 'ready'; importMs: number; initMs: number; firstRunMs: number; rssBytes: number }
  | { type: 'batch'; durations: number[]; cpuMsPerRun: number }
  | { type: 'concurrent'; wallMs: number }
  | { type: 'memory'; maxRssBytes: number; rssBytes: number }
  | { type: 'closed'; closeMs: number; maxRssBytes: number }
  | { type: 'error'; phase: string; message: string }
