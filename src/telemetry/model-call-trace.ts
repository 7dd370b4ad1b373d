import { type Attributes, type Context, type Span, trace } from '@opentelemetry/api'
import type { ModelTurn } from '../contracts/transport.js'
import { errorStatus, errorTypeOf, finishReasonOf, outputMessages } from './gen-ai-conventions.js'
import type { Instruments } from './instruments.js'

/** One model call's span and metrics. */
export class ModelCallTrace {
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
