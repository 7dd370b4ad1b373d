import {
  type Attributes,
  type Context,
  context,
  type Histogram,
  type Meter,
  metrics,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api'
import type { LoopTelemetry, RunTelemetry } from '../loop/run-telemetry.js'
import type { ModelToolCall, ModelTurn, Transport, TransportStreamPart } from '../loop/transport.js'
import type { RunResult } from '../loop/types.js'
import { toJsonText } from '../tool/tool-result.js'
import type { ToolResult } from '../tool/types.js'
import { toolkitSecretScrubber } from '../toolkit/toolkit-secrets.js'
import { VERSION } from '../version.js'
import type { TelemetryOptions } from './telemetry-options.js'

// The GenAI semantic conventions' bucket advice: seconds for durations, powers of four for tokens.
const DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
]
const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
]

// What a tool call the toolkit does not have is named, in span names and metric attributes alike.
const UNKNOWN_TOOL = '_unknown'

interface Instruments {
  operationDuration: Histogram
  tokenUsage: Histogram
  agentDuration: Histogram
  toolDuration: Histogram
}

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
  const instruments: Instruments = {
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
  return {
    startRun(info) {
      // Even without content, ids, models and error types come from the model or a server: all are masked.
      const mask = toolkitSecretScrubber(info.toolkit)
      const scrub = recordContent ? mask : undefined
      return new OpenTelemetryRun({ tracer, instruments, scrub, mask, ...info })
    },
  }
}

type RunInfo = Parameters<LoopTelemetry['startRun']>[0]

class OpenTelemetryRun implements RunTelemetry {
  readonly #tracer: ReturnType<typeof trace.getTracer>
  readonly #instruments: Instruments
  /** Masks secrets in recorded content; `undefined` when content is not recorded. */
  readonly #scrub: ((text: string) => string) | undefined
  /** Masks secrets in what is recorded either way (ids, models, error types). */
  readonly #mask: (text: string) => string
  readonly #info: RunInfo
  readonly #span: Span
  readonly #context: Context
  readonly #started = performance.now()
  readonly #common: Attributes
  #ended = false

  constructor(
    options: RunInfo & {
      tracer: ReturnType<typeof trace.getTracer>
      instruments: Instruments
      scrub: ((text: string) => string) | undefined
      mask: (text: string) => string
    },
  ) {
    const { tracer, instruments, scrub, mask, ...info } = options
    this.#tracer = tracer
    this.#instruments = instruments
    this.#scrub = scrub
    this.#mask = mask
    this.#info = info
    this.#common = {
      'gen_ai.provider.name': info.model.provider,
      'gen_ai.request.model': info.model.id,
    }
    const attributes: Attributes = { 'gen_ai.operation.name': 'invoke_agent', ...this.#common }
    if (scrub !== undefined) {
      if (info.system !== undefined)
        attributes['gen_ai.system_instructions'] = scrub(systemParts(info.system))
      if (typeof info.prompt === 'string') {
        attributes['gen_ai.input.messages'] = scrub(
          JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: info.prompt }] }]),
        )
      }
    }
    // The caller's active span, if any, is the parent: a run inside a request handler's span nests there.
    const parent = context.active()
    this.#span = tracer.startSpan('invoke_agent', { kind: SpanKind.INTERNAL, attributes }, parent)
    this.#context = trace.setSpan(parent, this.#span)
  }

  traceTransport<Message>(transport: Transport<Message>): Transport<Message> {
    return {
      model: transport.model,
      userMessage: (prompt) => transport.userMessage(prompt),
      toolResultsMessages: (results) => transport.toolResultsMessages(results),
      classifyError: (error) => transport.classifyError(error),
      generate: (request) => {
        const call = this.#startModelCall()
        return context
          .with(call.context, () => transport.generate(request))
          .then(
            (turn) => {
              call.end(turn)
              return turn
            },
            (error: unknown) => {
              call.fail(error)
              throw error
            },
          )
      },
      stream: (request) => this.#tracedStream(() => transport.stream(request)),
    }
  }

  async *#tracedStream<Message>(
    start: () => AsyncIterable<TransportStreamPart<Message>>,
  ): AsyncGenerator<TransportStreamPart<Message>> {
    const call = this.#startModelCall()
    const parts = context.with(call.context, () => start()[Symbol.asyncIterator]())
    try {
      while (true) {
        const next = await context.with(call.context, () => parts.next())
        if (next.done === true) break
        if (next.value.type === 'turn') call.end(next.value.turn)
        yield next.value
      }
    } catch (error) {
      call.fail(error)
      throw error
    } finally {
      // The loop leaves as soon as it has the turn; a stream left earlier (abort) was stopped.
      call.fail(new StoppedError())
      // Not awaited, as the loop does: a transport stuck on its network read must not hold the run.
      parts.return?.()?.then(undefined, () => {})
    }
  }

  #startModelCall(): ModelCallTrace {
    const { model } = this.#info
    const attributes: Attributes = { 'gen_ai.operation.name': 'chat', ...this.#common }
    if (this.#scrub !== undefined && this.#info.system !== undefined) {
      attributes['gen_ai.system_instructions'] = this.#scrub(systemParts(this.#info.system))
    }
    const span = this.#tracer.startSpan(
      `chat ${model.id}`,
      { kind: SpanKind.CLIENT, attributes },
      this.#context,
    )
    return new ModelCallTrace({
      span,
      parent: this.#context,
      instruments: this.#instruments,
      common: this.#common,
      scrub: this.#scrub,
      mask: this.#mask,
    })
  }

  traceToolCall(
    call: ModelToolCall,
    args: () => unknown,
    answer: () => Promise<ToolResult>,
  ): Promise<ToolResult> {
    const started = performance.now()
    // Only a toolkit tool is named: a name the model made up could carry anything (a secret it saw), and
    // each one would be a new metric series.
    const tool = this.#info.toolkit?.get(call.name)
    const name = tool === undefined ? UNKNOWN_TOOL : call.name
    const attributes: Attributes = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': name,
      'gen_ai.tool.call.id': this.#mask(call.id),
      'gen_ai.tool.type': 'function',
    }
    const description = tool?.description
    if (description !== undefined && description !== '') {
      attributes['gen_ai.tool.description'] = this.#mask(description)
    }
    const span = this.#tracer.startSpan(
      `execute_tool ${name}`,
      { kind: SpanKind.INTERNAL, attributes },
      this.#context,
    )
    const finish = (errorType: string | undefined): void => {
      const metric: Attributes = {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': name,
        'gen_ai.tool.type': 'function',
      }
      if (errorType !== undefined) {
        metric['error.type'] = errorType
        span.setAttribute('error.type', errorType)
        span.setStatus({ code: SpanStatusCode.ERROR })
      }
      this.#instruments.toolDuration.record((performance.now() - started) / 1000, metric)
      span.end()
    }
    const answered = context.with(trace.setSpan(this.#context, span), answer).then(
      (result) => {
        if (this.#scrub !== undefined) {
          span.setAttribute('gen_ai.tool.call.arguments', this.#scrub(toJsonText(args())))
          span.setAttribute('gen_ai.tool.call.result', this.#scrub(result.output))
        }
        finish(result.isError ? 'tool_error' : undefined)
        return result
      },
      (error: unknown) => {
        finish(this.#mask(errorTypeOf(error)))
        throw error
      },
    )
    // The loop may stop awaiting (abort, a hook's throw) before this settles.
    answered.catch(() => {})
    return answered
  }

  end(result: RunResult<unknown>): void {
    if (this.#ended) return
    this.#ended = true
    const span = this.#span
    span.setAttributes({
      'gen_ai.usage.input_tokens': result.usage.inputTokens,
      'gen_ai.usage.output_tokens': result.usage.outputTokens,
      'gen_ai.response.finish_reasons': [finishReasonOf(result.finishReason)],
      'toolnexus.run.turns': result.turns,
      'toolnexus.run.status': result.status,
    })
    if (this.#scrub !== undefined) {
      span.setAttribute(
        'gen_ai.output.messages',
        this.#scrub(outputMessages(result.text, [], result.finishReason)),
      )
    }
    this.#instruments.agentDuration.record(this.#seconds(), {
      'gen_ai.operation.name': 'invoke_agent',
      ...this.#common,
    })
    span.end()
  }

  fail(error: unknown): void {
    if (this.#ended) return
    this.#ended = true
    const errorType = this.#mask(errorTypeOf(error))
    this.#span.setAttribute('error.type', errorType)
    this.#span.setStatus(errorStatus(error, this.#scrub))
    this.#instruments.agentDuration.record(this.#seconds(), {
      'gen_ai.operation.name': 'invoke_agent',
      ...this.#common,
      'error.type': errorType,
    })
    this.#span.end()
  }

  #seconds(): number {
    return (performance.now() - this.#started) / 1000
  }
}

/** One model call's span and metrics. */
class ModelCallTrace {
  readonly context: Context
  readonly #span: Span
  readonly #instruments: Instruments
  readonly #common: Attributes
  readonly #scrub: ((text: string) => string) | undefined
  readonly #mask: (text: string) => string
  readonly #started = performance.now()
  #ended = false

  constructor(options: {
    span: Span
    parent: Context
    instruments: Instruments
    common: Attributes
    scrub: ((text: string) => string) | undefined
    mask: (text: string) => string
  }) {
    this.#span = options.span
    this.context = trace.setSpan(options.parent, options.span)
    this.#instruments = options.instruments
    this.#common = options.common
    this.#scrub = options.scrub
    this.#mask = options.mask
  }

  end(turn: ModelTurn<unknown>): void {
    if (this.#ended) return
    this.#ended = true
    const span = this.#span
    const { inputTokens, outputTokens } = turn.usage
    span.setAttributes({
      'gen_ai.usage.input_tokens': inputTokens,
      'gen_ai.usage.output_tokens': outputTokens,
      'gen_ai.response.finish_reasons': [finishReasonOf(turn.finishReason)],
    })
    if (turn.responseId !== undefined) span.setAttribute('gen_ai.response.id', this.#mask(turn.responseId))
    const metric: Attributes = { 'gen_ai.operation.name': 'chat', ...this.#common }
    if (turn.responseModel !== undefined) {
      const responseModel = this.#mask(turn.responseModel)
      span.setAttribute('gen_ai.response.model', responseModel)
      metric['gen_ai.response.model'] = responseModel
    }
    if (this.#scrub !== undefined) {
      span.setAttribute(
        'gen_ai.output.messages',
        this.#scrub(outputMessages(turn.text, turn.toolCalls, turn.finishReason)),
      )
    }
    this.#instruments.operationDuration.record((performance.now() - this.#started) / 1000, metric)
    this.#instruments.tokenUsage.record(inputTokens, { ...metric, 'gen_ai.token.type': 'input' })
    this.#instruments.tokenUsage.record(outputTokens, { ...metric, 'gen_ai.token.type': 'output' })
    span.end()
  }

  fail(error: unknown): void {
    if (this.#ended) return
    this.#ended = true
    const errorType = this.#mask(errorTypeOf(error))
    this.#span.setAttribute('error.type', errorType)
    this.#span.setStatus(errorStatus(error, this.#scrub))
    this.#instruments.operationDuration.record((performance.now() - this.#started) / 1000, {
      'gen_ai.operation.name': 'chat',
      ...this.#common,
      'error.type': errorType,
    })
    this.#span.end()
  }
}

/** A streaming model call the loop stopped reading before its turn was complete. */
class StoppedError extends Error {
  override readonly name = 'AbortError'
}

/**
 * A low-cardinality class for what went wrong: the HTTP status of a provider error, else the error's
 * name (`ModelCallError`, `AbortError`, `TypeError`), else `_OTHER`, as the conventions ask.
 */
function errorTypeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { statusCode, cause } = error as { statusCode?: unknown; cause?: unknown }
    if (typeof statusCode === 'number') return String(statusCode)
    const causeStatus = (cause as { statusCode?: unknown } | null | undefined)?.statusCode
    if (typeof causeStatus === 'number') return String(causeStatus)
  }
  if (error instanceof Error && error.name !== '') return error.name
  return '_OTHER'
}

/**
 * The error status. The message is content (a provider's error can quote the request), so it is kept only
 * where content is recorded, and masked there too.
 */
function errorStatus(
  error: unknown,
  scrub: ((text: string) => string) | undefined,
): { code: SpanStatusCode; message?: string } {
  if (scrub === undefined) return { code: SpanStatusCode.ERROR }
  const message = error instanceof Error ? error.message : toJsonText(error)
  return { code: SpanStatusCode.ERROR, message: scrub(message) }
}

/** The conventions spell finish reasons with underscores (`tool_calls`); the loop's use hyphens. */
function finishReasonOf(reason: string): string {
  return reason.replaceAll('-', '_')
}

function systemParts(system: string): string {
  return JSON.stringify([{ type: 'text', content: system }])
}

/** The conventions' `gen_ai.output.messages`: one assistant message with its text and tool calls. */
function outputMessages(text: string, toolCalls: readonly ModelToolCall[], finishReason: string): string {
  const parts: unknown[] = []
  if (text !== '') parts.push({ type: 'text', content: text })
  for (const call of toolCalls) {
    parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.input })
  }
  return JSON.stringify([{ role: 'assistant', parts, finish_reason: finishReasonOf(finishReason) }])
}
