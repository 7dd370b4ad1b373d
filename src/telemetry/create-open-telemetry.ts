import { context, type Meter, metrics, TraceFlags, type Tracer, trace } from '@opentelemetry/api'
import type { LoopTelemetry } from '../contracts/run-telemetry.js'
import { readTraceContextWith, type TraceContext } from '../shared/trace-context.js'
import { toolkitSecretScrubber } from '../toolkit/toolkit-secrets.js'
import { VERSION } from '../version.js'
import { createInstruments } from './instruments.js'
import { OpenTelemetryRun } from './open-telemetry-run.js'
import type { TelemetryOptions } from './telemetry-options.js'

/**
 * The loop's telemetry over the OpenTelemetry API: spans and metrics by the GenAI semantic conventions.
 * Made once per client; the instruments are made here, once.
 *
 * @example
 * const telemetry = createOpenTelemetry({ recordContent: false })
 */
export function createOpenTelemetry(options: TelemetryOptions): LoopTelemetry {
  // The options name the two structurally (see TelemetryTracer); the values are the API's own.
  const tracer = (options.tracer as Tracer | undefined) ?? trace.getTracer('toolnexus', VERSION)
  const meter = (options.meter as Meter | undefined) ?? metrics.getMeter('toolnexus', VERSION)
  const recordContent = options.recordContent === true
  const instruments = createInstruments(meter)
  // A tool call that runs inside a span carries it to the MCP server it calls (one trace across both).
  readTraceContextWith(activeSpanContext)
  return {
    startRun(info) {
      // Even without content, ids, models and error types come from the model or a server: all are masked.
      const mask = toolkitSecretScrubber(info.toolkit)
      const scrub = recordContent ? mask : undefined
      return new OpenTelemetryRun({ tracer, instruments, scrub, mask, ...info })
    },
  }
}

/** The active span's context as W3C `traceparent` / `tracestate`; undefined without a valid span. */
function activeSpanContext(): TraceContext | undefined {
  const span = trace.getSpanContext(context.active())
  if (span === undefined || !trace.isSpanContextValid(span)) return undefined
  const flags = (span.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED ? '01' : '00'
  const traceparent = `00-${span.traceId}-${span.spanId}-${flags}`
  const tracestate = span.traceState?.serialize()
  return tracestate ? { traceparent, tracestate } : { traceparent }
}
