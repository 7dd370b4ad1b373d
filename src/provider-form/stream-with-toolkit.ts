import type {
  ProviderOptions,
  SpecContentPart,
  SpecLanguageModel,
  SpecStreamPart,
  SpecStreamResult,
} from '../ai-sdk/language-model-spec.js'
import { runLoop } from '../loop/run-loop.js'
import { approvalParts } from './provider-form-approvals.js'
import { ProviderFormTransport } from './provider-form-transport.js'
import { emptyUsage } from './sum-spec-usage.js'
import { toolCallPart, toolResultPart } from './tool-call-part.js'
import { loopInput, type WrappedCall } from './wrapped-call.js'

/**
 * `doStream` of a model wrapped by `withToolkit`: the inner calls' text and reasoning as they stream, the
 * toolkit's calls and results as provider-executed parts as the loop reports them, then one `finish`
 * with the summed usage. It answers once the first inner call has (its request and response are the ones
 * the AI SDK reads).
 *
 * @example
 * const { stream } = await streamWithToolkit(wrappedCall({ inner, wrappedModel, toolkit, settings, callOptions }))
 */
export async function streamWithToolkit(call: WrappedCall): Promise<SpecStreamResult> {
  const stop = new AbortController()
  let controller!: ReadableStreamDefaultController<SpecStreamPart>
  let open = true
  // The calls reported in this stream, by id.
  const reported = new Set<string>()
  const enqueue = (part: SpecStreamPart): void => {
    if (part.type === 'tool-call' && part.toolCallId !== undefined) reported.add(part.toolCallId)
    if (open) controller.enqueue(part)
  }
  // Every call the loop answered is the toolkit's to report, a name it does not know included.
  const own = (name: string): boolean => !call.external.has(name)
  let started = false
  let streamedTurns = 0
  const callMetadata = new Map<string, ProviderOptions>()
  // A turn's calls, held until the loop says which of them wait for approval.
  const turnCalls: SpecContentPart[] = []
  const waiting: SpecContentPart[] = []
  // The outer call answers once the first inner call has (its request and response headers are the
  // ones the AI SDK reads), or once the loop ended without one.
  let answered!: () => void
  const firstAnswer = new Promise<void>((resolve) => {
    answered = resolve
  })
  // Text and reasoning ids repeat from one inner call to the next with some providers: each call gets its own.
  const idPrefix = (): string => (streamedTurns > 1 ? `${streamedTurns}:` : '')
  const transport = new ProviderFormTransport({
    model: call.wrappedModel,
    callerOptions: call.callOptions,
    relay: (part) => {
      answered()
      switch (part.type) {
        case 'stream-start':
          streamedTurns++
          if (started) return
          started = true
          return enqueue(part)
        case 'tool-call':
          // Kept for the call the loop reports: Gemini's thought signature rides on it.
          if (part.toolCallId !== undefined && part.providerMetadata !== undefined)
            callMetadata.set(part.toolCallId, part.providerMetadata)
          return
        case 'error':
          // Calls are reported as the loop read them; a failed call is the loop's to retry or report.
          return
        case 'tool-input-start':
          return enqueue(
            part.toolName !== undefined && own(part.toolName)
              ? Object.assign({}, part, { providerExecuted: true, dynamic: true })
              : part,
          )
        default:
          return enqueue(
            part.id !== undefined && isTextBlock(part.type) ? { ...part, id: idPrefix() + part.id } : part,
          )
      }
    },
  })
  const body = new ReadableStream<SpecStreamPart>({
    start(streamController) {
      controller = streamController
    },
    cancel() {
      open = false
      stop.abort()
    },
  })
  const finish = (): void => {
    if (!open) return
    open = false
    controller.close()
  }
  ;(async () => {
    try {
      for await (const event of runLoop(loopInput(call, transport, 'stream', stop.signal))) {
        if (!started) {
          started = true
          enqueue({ type: 'stream-start', warnings: [] } as SpecStreamPart)
        }
        if (event.type === 'tool-call') {
          const id = event.toolCallId
          turnCalls.push(
            toolCallPart(
              { id, name: event.toolName, input: event.input },
              own(event.toolName),
              callMetadata.get(id),
            ),
          )
          continue
        }
        if (event.type === 'tool-approval-request') {
          // Reported with its request once the run has its state, at the end of this turn.
          const index = turnCalls.findIndex((part) => part.toolCallId === event.toolCallId)
          if (index !== -1) waiting.push(...turnCalls.splice(index, 1))
          continue
        }
        for (const part of turnCalls.splice(0)) enqueue(part)
        if (event.type === 'tool-result') {
          const released = call.answers?.calls.get(event.toolCallId)
          if (released !== undefined && !reported.has(event.toolCallId)) {
            // A call released by an approval: reported again beside its result.
            const again = { id: event.toolCallId, name: released.toolName, input: released.args }
            enqueue(toolCallPart(again, true, undefined))
          }
          enqueue(
            toolResultPart({
              id: event.toolCallId,
              name: event.toolName,
              output: event.output,
              isError: event.isError,
            }),
          )
        } else if (event.type === 'finish') {
          if (event.result.status === 'suspended') {
            for (const part of waiting) enqueue(part)
            for (const part of approvalParts(event.result, waiting)) enqueue(part)
          }
          enqueue(finishPart(transport, call.inner))
        }
        // A declined call (`tool-output-denied`) is reported by the AI SDK itself.
      }
    } catch (error) {
      if (!started) enqueue({ type: 'stream-start', warnings: [] } as SpecStreamPart)
      started = true
      enqueue({ type: 'error', error })
    } finally {
      finish()
      answered()
    }
  })()
  await firstAnswer
  const result: SpecStreamResult = { stream: body }
  if (transport.request !== undefined) result.request = transport.request
  if (transport.response !== undefined)
    result.response = transport.response as NonNullable<SpecStreamResult['response']>
  return result
}

function finishPart(transport: ProviderFormTransport, inner: SpecLanguageModel): SpecStreamPart {
  const part: SpecStreamPart = {
    type: 'finish',
    finishReason: transport.finishReason,
    usage: transport.usage ?? emptyUsage(inner),
  }
  if (transport.providerMetadata !== undefined) part.providerMetadata = transport.providerMetadata
  return part
}

function isTextBlock(type: string): boolean {
  return type.startsWith('text-') || type.startsWith('reasoning-')
}
