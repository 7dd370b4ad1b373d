/**
 * An OpenTelemetry `Tracer` (from `trace.getTracer(...)` of `@opentelemetry/api`). Named structurally, so
 * that toolnexus's declarations do not need the optional `@opentelemetry/api` installed; any `Tracer` fits.
 *
 * @example
 * const tracer: TelemetryTracer = trace.getTracer('my-app')
 */
interface TelemetryTracer {
  startSpan(...args: never[]): unknown
}

/**
 * An OpenTelemetry `Meter` (from `metrics.getMeter(...)` of `@opentelemetry/api`), named structurally like
 * {@link TelemetryTracer}; any `Meter` fits.
 *
 * @example
 * const meter: TelemetryMeter = metrics.getMeter('my-app')
 */
interface TelemetryMeter {
  createHistogram(...args: never[]): unknown
}

/**
 * OpenTelemetry for a client's runs: a span per run (`invoke_agent`), per model call (`chat <model>`) and
 * per tool call (`execute_tool <tool>`), and the GenAI metrics, named and attributed by the OpenTelemetry
 * GenAI semantic conventions. Needs `@opentelemetry/api` installed; it is loaded only when this is set.
 *
 * @example
 * import { trace } from '@opentelemetry/api'
 * const client = createClient({ model, telemetry: { tracer: trace.getTracer('my-app'), recordContent: true } })
 */
export interface TelemetryOptions {
  /** Where spans go. @default trace.getTracer('toolnexus', VERSION): the global tracer provider's */
  tracer?: TelemetryTracer
  /** Where metrics go. @default metrics.getMeter('toolnexus', VERSION): the global meter provider's */
  meter?: TelemetryMeter
  /**
   * Records what was said: the prompt, the model's text and tool calls, each tool's arguments and
   * result, with every secret the toolkit knows masked. Off, spans carry names, ids, models, token
   * counts and error types only. @default false
   */
  recordContent?: boolean
}
