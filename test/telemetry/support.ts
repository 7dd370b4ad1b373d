import { context, metrics, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import {
  AggregationTemporality,
  type HistogramMetricData,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics'
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base'

/** The real OpenTelemetry SDK, recording into memory: spans as they end, metrics when collected. */
export interface RecordingTelemetry {
  tracerProvider: BasicTracerProvider
  meterProvider: MeterProvider
  spans(): ReadableSpan[]
  /** The histogram of this name, every data point with its attributes. */
  histogram(name: string): Promise<HistogramMetricData['dataPoints']>
  reset(): void
  shutdown(): Promise<void>
}

/**
 * Sets up the tracing and metrics SDKs with in-memory exporters; `global` also registers them, and an
 * AsyncLocalStorage context manager, as the API's globals.
 *
 * @example
 * const recording = startRecording({ global: false })
 * const client = createClient({ model, telemetry: { tracer: recording.tracerProvider.getTracer('t') } })
 */
export function startRecording(options: { global: boolean }): RecordingTelemetry {
  const spanExporter = new InMemorySpanExporter()
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] })
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE)
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  })
  const meterProvider = new MeterProvider({ readers: [reader] })
  const contextManager = new AsyncLocalStorageContextManager()
  if (options.global) {
    context.setGlobalContextManager(contextManager.enable())
    trace.setGlobalTracerProvider(tracerProvider)
    metrics.setGlobalMeterProvider(meterProvider)
  }
  return {
    tracerProvider,
    meterProvider,
    spans: () => spanExporter.getFinishedSpans(),
    async histogram(name) {
      await reader.forceFlush()
      const batches = metricExporter.getMetrics()
      const latest = batches.at(-1)
      const metric = latest?.scopeMetrics
        .flatMap((scope) => scope.metrics)
        .find((each) => each.descriptor.name === name)
      return (metric as HistogramMetricData | undefined)?.dataPoints ?? []
    },
    reset() {
      spanExporter.reset()
      metricExporter.reset()
    },
    async shutdown() {
      await tracerProvider.shutdown()
      await meterProvider.shutdown()
      if (options.global) {
        contextManager.disable()
        context.disable()
        trace.disable()
        metrics.disable()
      }
    },
  }
}

/** A span as the tests pin it: name, kind, parent name, attributes, status. */
export function describeSpan(span: ReadableSpan, all: readonly ReadableSpan[]): Record<string, unknown> {
  const parentId = span.parentSpanContext?.spanId
  const parent = all.find((each) => each.spanContext().spanId === parentId)
  return {
    name: span.name,
    kind: span.kind,
    parent: parent?.name ?? (parentId === undefined ? null : 'outside'),
    attributes: span.attributes,
    status: span.status,
  }
}
