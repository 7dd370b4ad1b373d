// What the single-process helpers (A/B, profile, warm-up curve) share: the scripted endpoint in a child
// process, and implementations loaded into this process against it.

import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type {
  BenchInstance,
  CreateImplementation,
  ImplementationOptions,
  ToolVariant,
} from '../impls/types.js'
import { type IpcChild, startChild } from './child.js'

const distDir = dirname(dirname(fileURLToPath(import.meta.url)))

export interface LocalBench {
  /** The options every implementation gets: the endpoint's URLs and the stdio MCP server. */
  options: ImplementationOptions
  /** Loads an implementation by id and creates its instance in this process. */
  load(id: string): Promise<BenchInstance>
  /** Stops the endpoint. */
  stop(): Promise<void>
}

/** Starts the scripted endpoint (its log goes to `results/logs/<logName>.log`). */
export async function startLocalBench(variant: ToolVariant, logName: string): Promise<LocalBench> {
  const logsDir = join(distDir, '..', 'results', 'logs')
  mkdirSync(logsDir, { recursive: true })
  const endpoint: IpcChild<{ type: string; port?: number }> = startChild(
    join(distDir, 'endpoint/scripted-endpoint.js'),
    { args: [], logFile: join(logsDir, `${logName}.log`) },
  )
  const { port } = await endpoint.first(10_000)
  const options: ImplementationOptions = {
    variant,
    openaiBaseUrl: `http://127.0.0.1:${port}/v1`,
    geminiBaseUrl: `http://127.0.0.1:${port}`,
    mcpServer: { command: process.execPath, args: [join(distDir, 'mcp/bench-mcp-server.js')] },
  }
  return {
    options,
    load: async (id) =>
      ((await import(`../impls/${id}.js`)) as { create: CreateImplementation }).create(options),
    stop: () => endpoint.stop(2_000),
  }
}
