// The W3C trace context of the work in progress, for requests that carry it to another process (an MCP
// tool call's `_meta`). OpenTelemetry is an optional peer: its layer registers the reader when telemetry
// is made, and until then nothing is read.

/**
 * A W3C trace context: `traceparent` and, when there is one, `tracestate`.
 *
 * @example
 * const trace: TraceContext = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }
 */
export interface TraceContext {
  traceparent: string
  tracestate?: string
}

let readActive: (() => TraceContext | undefined) | undefined

/** Registers how the active span's context is read (the telemetry layer does, once). */
export function readTraceContextWith(reader: () => TraceContext | undefined): void {
  readActive = reader
}

/** The active span's trace context; undefined when there is none or telemetry was never made. */
export function activeTraceContext(): TraceContext | undefined {
  return readActive?.()
}
