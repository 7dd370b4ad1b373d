// The messages between the coordinator and its child processes (workers, the scale bench).

import type { ToolVariant } from '../impls/types.js'

/** What a worker is told on its command line. */
export interface WorkerConfig {
  implementation: string
  variant: ToolVariant
  openaiBaseUrl: string
  geminiBaseUrl: string
  mcpServer: { command: string; args: string[] }
}

export type WorkerCommand =
  | { type: 'batch'; count: number }
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
