import {
  type Attributes,
  type Context,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api'
import type { LoopTelemetry, RunTelemetry } from '../contracts/run-telemetry.js'
import type { RunResult } from '../contracts/run-types.js'
import type { ModelToolCall, Transport, TransportStreamPart } from '../contracts/transport.js'
import { toJsonText } from '../tool/tool-result.js'
import type { ToolResult } from '../tool/types.js'
import {
  errorStatus,
  errorTypeOf,
  finishReasonOf,
  outputMessages,
  StoppedError,
  systemParts,
} from './gen-ai-conventions.js'
import type { Instruments } from './instruments.js'
import { ModelCallTrace } from './model-call-trace.js'

// What a tool call the toolkit does not have is named, in span names and metric attributes alike.
const UNKNOWN_TOOL = '_unknown'

type RunInfo = Parameters<LoopTelemetry['startRun']>[0]

export class OpenTelemetryRun implements RunTelemetry {
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
