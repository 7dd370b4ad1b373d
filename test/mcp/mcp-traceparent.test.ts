// A tool call made inside an active span carries its trace context to the MCP server (one trace spans the
// host and the server); outside a span it carries none.
import { trace } from '@opentelemetry/api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOpenTelemetry } from '../../src/telemetry/create-open-telemetry.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { type RecordingTelemetry, startRecording } from '../telemetry/support.js'
import { FIXTURES } from './mcp-fixtures.js'

let recording: RecordingTelemetry
let toolkit: Toolkit
beforeAll(async () => {
  recording = startRecording({ global: true })
  createOpenTelemetry({})
  toolkit = await createToolkit({
    logger: { warn: () => undefined },
    mcpConfig: {
      mcpServers: { v2: { command: process.execPath, args: [`${FIXTURES}/v2-stdio-server.mjs`] } },
    },
  })
}, 60_000)
afterAll(async () => {
  await toolkit?.close()
  await recording?.shutdown()
})

describe('traceparent in a tool call', () => {
  it('carries the active span to the server', async () => {
    const tracer = recording.tracerProvider.getTracer('host')
    const { output, traceparent } = await tracer.startActiveSpan('host', async (span) => {
      const result = await toolkit.execute('v2_trace', {})
      span.end()
      const { traceId, spanId } = span.spanContext()
      return { output: String(result.output), traceparent: `00-${traceId}-${spanId}-01` }
    })
    expect(output).toBe(traceparent)
  }, 60_000)

  it('carries nothing outside a span', async () => {
    expect(trace.getActiveSpan()).toBeUndefined()
    expect(String((await toolkit.execute('v2_trace', {})).output)).toBe('none')
  }, 60_000)
})
