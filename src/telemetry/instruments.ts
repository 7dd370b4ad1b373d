import type { Histogram, Meter } from '@opentelemetry/api'

// The GenAI semantic conventions' bucket advice: seconds for durations, powers of four for tokens.
const DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
]
const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
]

export interface Instruments {
  operationDuration: Histogram
  tokenUsage: Histogram
  agentDuration: Histogram
  toolDuration: Histogram
}

// The four histograms the conventions name, made once per telemetry.
export function createInstruments(meter: Meter): Instruments {
  return {
    operationDuration: meter.createHistogram('gen_ai.client.operation.duration', {
      description: 'GenAI operation duration.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    tokenUsage: meter.createHistogram('gen_ai.client.token.usage', {
      description: 'Number of input and output tokens used.',
      unit: '{token}',
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    }),
    agentDuration: meter.createHistogram('gen_ai.invoke_agent.duration', {
      description: 'Duration of one agent invocation: a whole tool-calling run.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    toolDuration: meter.createHistogram('gen_ai.execute_tool.duration', {
      description: 'Duration of one tool call, from the model asking to the answer.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
  }
}
