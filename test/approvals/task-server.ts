// An MCP server (a toolkit served over HTTP on loopback) whose `build` tool runs as a task until the test
// settles it, and a toolkit over it that waits 300 ms for a task: what the task-suspension tests share.
import { createMcpHandler } from '../../src/mcp-server/create-mcp-handler.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { serveRecording } from '../mcp-server/serve-fetch.js'

/** Where a test registers what to close after it. */
export type Closers = Array<() => Promise<unknown>>

/** A server's long-running `build` tool, which works until the test settles it. */
export function buildGate(taskTimeoutMs: number | undefined) {
  let settle: { resolve: (text: string) => void; reject: (error: Error) => void } | undefined
  const started: string[] = []
  const done = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject }
  })
  done.catch(() => undefined)
  const tool = defineTool({
    name: 'build',
    description: 'Builds a report (slowly).',
    inputSchema: { type: 'object', properties: { month: { type: 'string' } }, required: ['month'] },
    longRunning: taskTimeoutMs === undefined ? true : { timeoutMs: taskTimeoutMs },
    execute: async ({ month }) => {
      started.push(String(month))
      return `${await done} for ${String(month)}.`
    },
  })
  return {
    tool,
    started,
    complete: () => settle?.resolve('Report'),
    fail: (message: string) => settle?.reject(new Error(message)),
  }
}

/** The MCP server with the gated tool; counts the methods it is sent. */
export async function startTaskServer(
  closers: Closers,
  options: { rewrite?: (body: string, method: string) => string; taskTimeoutMs?: number } = {},
) {
  const gate = buildGate(options.taskTimeoutMs)
  const served = await createToolkit({ logger: { warn: () => undefined }, tools: [gate.tool] })
  closers.push(() => served.close())
  const handler = createMcpHandler({ toolkit: served, authorize: () => true })
  const { server, methods } = await serveRecording(handler, options.rewrite)
  closers.push(() => server.close())
  return { url: `${server.url}/mcp`, gate, methods }
}

/** A toolkit (one instance's) over the task server as `srv`, waiting 300 ms for a task. */
export async function toolkitFor(
  closers: Closers,
  url: string,
  extra: Parameters<typeof createToolkit>[0] = {},
): Promise<Toolkit> {
  const toolkit = await createToolkit({
    logger: { warn: () => undefined },
    mcpConfig: { mcpServers: { srv: { url, taskWaitMs: 300 } } },
    ...extra,
  })
  closers.push(() => toolkit.close())
  return toolkit
}
