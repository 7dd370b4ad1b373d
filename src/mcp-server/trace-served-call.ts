import type { TelemetryOptions } from '../telemetry/telemetry-options.js'
import type { ToolResult } from '../tool/types.js'

/** The W3C trace context a request carried in its `_meta`, as received (unchecked). */
export interface CallerTrace {
  traceparent?: unknown
  tracestate?: unknown
}

/** Runs one served call inside its caller's trace, under an `execute_tool <tool>` span. */
export type TraceServedCall = (
  tool: string,
  caller: CallerTrace,
  run: () => Promise<ToolResult>,
) => Promise<ToolResult>

// version-traceid-parentid-flags; version ff and all-zero ids are invalid.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/

/**
 * The tracer of served calls when `telemetry` is set, else `undefined` (and nothing of OpenTelemetry
 * loads). Each call runs in a span whose parent is the `traceparent` its request carried (in the
 * 2026-07-28 envelope or a 2025 request's `params._meta`), so one trace spans the host that called and
 * the server that ran the tool. A malformed `traceparent` starts a trace of its own.
 *
 * @example
 * const traced = traceServedCalls({ tracer: trace.getTracer('gateway') })
 * await traced?.('search', { traceparent: '00-…-…-01' }, () => toolkit.execute('search', {}))
 */
export function traceServedCalls(telemetry: TelemetryOptions | undefined): TraceServedCall | undefined {
  if (telemetry === undefined) return undefined
  // Loaded on first call: @opentelemetry/api is an optional peer.
  let api: Promise<typeof import('@opentelemetry/api')> | undefined
  return async (tool, caller, run) => {
    api ??= import('@opentelemetry/api')
    const { context, trace, ROOT_CONTEXT, SpanKind, SpanStatusCode, createTraceState } = await api
    const tracer = (telemetry.tracer ?? trace.getTracer('toolnexus')) as ReturnType<typeof trace.getTracer>
    const parent = typeof caller.traceparent === 'string' ? TRACEPARENT.exec(caller.traceparent) : null
    let parentContext = context.active()
    if (
      parent !== null &&
      parent[1] !== 'ff' &&
      !/^0+$/.test(parent[2] ?? '') &&
      !/^0+$/.test(parent[3] ?? '')
    ) {
      parentContext = trace.setSpanContext(ROOT_CONTEXT, {
        traceId: parent[2] as string,
        spanId: parent[3] as string,
        traceFlags: Number.parseInt(parent[4] as string, 16) & 1,
        isRemote: true,
        ...(typeof caller.tracestate === 'string' &&
          caller.tracestate.length <= 512 && { traceState: createTraceState(caller.tracestate) }),
      })
    }
    const span = tracer.startSpan(
      `execute_tool ${tool}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool },
      },
      parentContext,
    )
    try {
      const result = await context.with(trace.setSpan(parentContext, span), run)
      if (result.isError) span.setStatus({ code: SpanStatusCode.ERROR })
      return result
    } finally {
      span.end()
    }
  }
}
