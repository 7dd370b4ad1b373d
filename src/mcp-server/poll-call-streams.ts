import type { ServerContext } from '@modelcontextprotocol/server'

/**
 * Runs one served request, closing its SSE stream when it still runs after `afterMs` (where the
 * transport can resume it: a 2025-11-25 session with an event store). The client reconnects with
 * `Last-Event-ID` after the stream's `retry` and gets the answer there, so a long call holds no
 * connection open meanwhile. Without `afterMs`, or where the stream cannot be resumed, it just runs.
 *
 * @example
 * server.setRequestHandler('tools/call', (request, ctx) => pollable(ctx, 30_000, () => call(request)))
 */
export async function pollable<Value>(
  ctx: ServerContext,
  afterMs: number | undefined,
  run: () => Promise<Value>,
): Promise<Value> {
  const closeStream = ctx.http?.closeSSE
  if (afterMs === undefined || closeStream === undefined) return run()
  const timer = setTimeout(closeStream, afterMs)
  try {
    return await run()
  } finally {
    clearTimeout(timer)
  }
}
