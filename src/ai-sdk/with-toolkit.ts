import type { LanguageModel } from 'ai'
import { ConfigError } from '../errors.js'
import { type LoopInput, type LoopSettings, runLoop } from '../loop/run-loop.js'
import { type LoopOptions as ClientOptions, readSettings } from '../loop/settings.js'
import type { ModelToolCall } from '../loop/transport.js'
import type { SuspendedRunResult, ToolCallRecord } from '../loop/types.js'
import type { Toolkit } from '../toolkit/create-toolkit.js'
import { checkLanguageModel } from './ai-sdk-transport.js'
import { convertProviderFormPrompt, TOOLNEXUS_MARK } from './convert-provider-form-prompt.js'
import type {
  JSONObject,
  ProviderOptions,
  SpecContentPart,
  SpecGenerateResult,
  SpecLanguageModel,
  SpecMessage,
  SpecStreamPart,
  SpecStreamResult,
} from './language-model-spec.js'
import { type ApprovalAnswers, findApprovalAnswers } from './provider-form-approvals.js'
import { type CallerOptions, ProviderFormTransport, WrappedModel } from './provider-form-transport.js'

/** A `LanguageModel` object (not a model id string), of any specification version `ai` accepts. */
export type LanguageModelObject = Exclude<LanguageModel, string>

/** What `withToolkit` takes besides the model: the toolkit, and the loop's options. */
export interface WithToolkitOptions extends Omit<ClientOptions<SpecMessage>, 'store'> {
  /** The tools the loop runs itself. The AI SDK sees their calls and results as provider-executed. */
  toolkit: Toolkit
}

/**
 * Wraps an AI SDK model so that its calls run the toolnexus loop: `generateText`, `streamText`, agents
 * and `useChat` routes keep their own code and get the toolkit's tools, run by toolnexus with its bounded
 * concurrency, call-order guarantees, hooks and retries. The toolkit's calls and results reach the AI SDK
 * as provider-executed tool parts, so it records them in `steps`, `toolCalls` / `toolResults` and the UI
 * message stream, and never runs them itself. Tools passed to the AI SDK function stay the AI SDK's: when
 * the model calls one, the wrapper ends its turn with that call, as a plain model would. The returned
 * model has `model`'s specification version (v2, v3 or v4).
 *
 * Usage is summed over the inner model calls, in the provider's own shape; the finish reason, metadata
 * and response are the last call's. The caller's `toolChoice` applies to the first inner call (later ones
 * use `auto`, so the model can answer once the toolkit has), except `none`, which holds throughout.
 *
 * @example
 * import { openai } from '@ai-sdk/openai'
 * import { streamText } from 'ai'
 * const result = streamText({ model: withToolkit(openai('gpt-5-mini'), { toolkit }), prompt: 'Weather in Pune?' })
 * return result.toUIMessageStreamResponse()
 */
export function withToolkit<Model extends LanguageModelObject>(
  model: Model,
  options: WithToolkitOptions,
): Model {
  if (typeof (model as unknown) === 'string') {
    throw new ConfigError(
      'withToolkit needs a model object, like withToolkit(openai("gpt-5-mini"), { toolkit }); a model id string has no specification version to match.',
    )
  }
  const inner = checkLanguageModel(model)
  const { toolkit, ...clientOptions } = checkOptions(options)
  // Its guard claims every answered run once (in `claims`, else the process's guard).
  const settings = readSettings(clientOptions, 'ai-sdk', 'withToolkit')
  const wrappedModel = new WrappedModel(inner)
  const callOf = (callOptions: unknown): WrappedCall =>
    wrappedCall({
      inner,
      wrappedModel,
      toolkit,
      settings,
      callOptions: callOptions as CallerOptions,
    })
  const wrapped: SpecLanguageModel & { supportedUrls?: unknown } = {
    specificationVersion: inner.specificationVersion,
    provider: inner.provider,
    modelId: inner.modelId,
    doGenerate: (callOptions) => generate(callOf(callOptions)),
    doStream: (callOptions) => stream(callOf(callOptions)),
  }
  // The AI SDK asks which URLs the provider downloads itself; the wrapper answers as its model does.
  const supportedUrls = (inner as { supportedUrls?: unknown }).supportedUrls
  if (supportedUrls !== undefined) {
    Object.defineProperty(wrapped, 'supportedUrls', {
      get: () => (inner as { supportedUrls?: unknown }).supportedUrls,
    })
  }
  // The object has every member of the model's specification, with the same signatures.
  return wrapped as unknown as Model
}

/** What `createToolnexus` takes: a provider, the toolkit and the loop's options. */
export interface ToolnexusProviderOptions<Provider extends (modelId: never) => LanguageModelObject>
  extends WithToolkitOptions {
  /** An AI SDK provider, like `openai` from `@ai-sdk/openai` or `createAnthropic({ apiKey })`. */
  provider: Provider
}

/** A provider whose models run the toolnexus loop: call it with a model id, as you call the provider. */
export interface ToolnexusProvider<Provider extends (modelId: never) => LanguageModelObject> {
  (modelId: Parameters<Provider>[0]): ReturnType<Provider>
  languageModel(modelId: Parameters<Provider>[0]): ReturnType<Provider>
}

/**
 * A provider factory over `withToolkit`: every model it makes runs the toolnexus loop with `toolkit`.
 *
 * @example
 * import { openai } from '@ai-sdk/openai'
 * const toolnexus = createToolnexus({ provider: openai, toolkit })
 * const { text } = await generateText({ model: toolnexus('gpt-5-mini'), prompt: 'Weather in Pune?' })
 */
export function createToolnexus<Provider extends (modelId: never) => LanguageModelObject>(
  options: ToolnexusProviderOptions<Provider>,
): ToolnexusProvider<Provider> {
  const { provider, ...wrapOptions } = options ?? ({} as ToolnexusProviderOptions<Provider>)
  if (typeof provider !== 'function') {
    throw new ConfigError(
      'createToolnexus needs `provider`, like createToolnexus({ provider: openai, toolkit }).',
    )
  }
  checkOptions(wrapOptions)
  const languageModel = (modelId: Parameters<Provider>[0]): ReturnType<Provider> =>
    withToolkit(provider(modelId) as ReturnType<Provider>, wrapOptions)
  return Object.assign(languageModel, { languageModel })
}

function checkOptions(options: WithToolkitOptions): WithToolkitOptions {
  const toolkit = options?.toolkit
  if (typeof toolkit?.tools !== 'function' || typeof toolkit.execute !== 'function') {
    throw new ConfigError(
      'withToolkit needs `toolkit`, a Toolkit from createToolkit(...): withToolkit(model, { toolkit }).',
    )
  }
  return options
}

interface WrappedCall {
  inner: SpecLanguageModel
  /** What the wrapper works out once about `inner`. */
  wrappedModel: WrappedModel
  toolkit: Toolkit
  settings: LoopSettings<SpecMessage>
  callOptions: CallerOptions
  /** The names of the caller's own tools: the loop leaves their calls to the AI SDK. */
  external: ReadonlySet<string>
  /** The answers this call's prompt gives to a run the wrapper suspended earlier. */
  answers: ApprovalAnswers | undefined
}

function wrappedCall(parts: Omit<WrappedCall, 'external' | 'answers'>): WrappedCall {
  const { callOptions } = parts
  // Built whole: on Node 20 a spread copy that gains keys takes a slow path (about a microsecond).
  return {
    inner: parts.inner,
    wrappedModel: parts.wrappedModel,
    toolkit: parts.toolkit,
    settings: parts.settings,
    callOptions,
    external: new Set((callOptions.tools ?? []).map((tool) => tool.name)),
    answers: findApprovalAnswers(callOptions.prompt),
  }
}

function loopInput(
  call: WrappedCall,
  transport: ProviderFormTransport,
  mode: 'generate' | 'stream',
  stop?: AbortSignal,
): LoopInput<SpecMessage> {
  const { answers } = call
  return {
    transport,
    settings: call.settings,
    history: [],
    prompt: answers === undefined ? convertProviderFormPrompt(call.callOptions.prompt) : [],
    toolkit: call.toolkit,
    signal: call.callOptions.abortSignal,
    externalTools: call.external,
    mode,
    ...(stop === undefined ? {} : { stop }),
    // Answers go on with the suspended run: its sealed state holds the transcript the loop had.
    ...(answers === undefined ? {} : { resume: { state: answers.state, approvals: answers.approvals } }),
  }
}

/** Reads the loop's records in order, one call at a time: a call without a record (waiting) reads none. */
function recordsInOrder(
  records: readonly ToolCallRecord[],
): (toolCallId: string) => ToolCallRecord | undefined {
  let next = 0
  return (toolCallId) => (records[next]?.id === toolCallId ? records[next++] : undefined)
}

async function generate(call: WrappedCall): Promise<SpecGenerateResult> {
  const transport = new ProviderFormTransport({ model: call.wrappedModel, callerOptions: call.callOptions })
  const events = runLoop(loopInput(call, transport, 'generate'))
  let next = await events.next()
  while (next.done !== true) next = await events.next()
  const result = next.value
  const { external, answers } = call
  const content: SpecContentPart[] = []
  const recordOf = recordsInOrder(result.toolCalls)
  // The calls the answers released come first: approved ones ran, and are reported again beside their
  // result (the AI SDK wants a step's results next to their calls); declined ones the AI SDK reports.
  for (const id of answers?.callIds ?? []) {
    const record = recordOf(id)
    if (record === undefined || answers?.declined.has(id)) continue
    content.push(toolCallPart({ id, name: record.name, input: record.args }, true, undefined))
    content.push(toolResultPart(record))
  }
  for (const inner of transport.calls) {
    const calls = inner.toolCalls[Symbol.iterator]()
    const own: ModelToolCall[] = []
    for (const part of inner.content) {
      if (part.type !== 'tool-call' || part.providerExecuted === true) {
        content.push(part)
        continue
      }
      const toolCall = calls.next().value
      if (toolCall === undefined) continue
      content.push(toolCallPart(toolCall, !external.has(toolCall.name), part.providerMetadata))
      if (!external.has(toolCall.name)) own.push(toolCall)
    }
    for (const toolCall of own) {
      const record = recordOf(toolCall.id)
      if (record !== undefined) content.push(toolResultPart(record))
    }
  }
  if (result.status === 'suspended') content.push(...approvalParts(result, content))
  return {
    content,
    finishReason: transport.finishReason,
    usage: transport.usage ?? emptyUsage(call.inner),
    warnings: transport.warnings,
    ...(transport.providerMetadata === undefined ? {} : { providerMetadata: transport.providerMetadata }),
    ...(transport.request === undefined ? {} : { request: transport.request }),
    ...(transport.response === undefined
      ? {}
      : { response: transport.response as NonNullable<SpecGenerateResult['response']> }),
  }
}

/**
 * What a suspended run reports: each waiting call's approval request, after its call. A waiting call that
 * is not among `reported` (it waits since an earlier call of the model) is reported again, so that its
 * request has its call. The first waiting call carries the run's sealed state, which comes back with it
 * when the AI SDK sends the user's answers.
 */
function approvalParts(
  result: SuspendedRunResult<SpecMessage>,
  reported: SpecContentPart[],
): SpecContentPart[] {
  const parts: SpecContentPart[] = []
  for (const [index, pending] of result.pending.entries()) {
    let callPart = reported.find(
      (part) => part.type === 'tool-call' && part.toolCallId === pending.toolCallId,
    )
    if (callPart === undefined) {
      callPart = toolCallPart(
        { id: pending.toolCallId, name: pending.toolName, input: pending.args },
        true,
        undefined,
      )
      parts.push(callPart)
    }
    if (index === 0)
      callPart.providerMetadata = {
        ...callPart.providerMetadata,
        // A run state is plain JSON data by construction (sealed as such).
        [TOOLNEXUS_MARK]: { state: result.state as unknown as JSONObject },
      }
    parts.push({
      type: 'tool-approval-request',
      approvalId: pending.approvalId,
      toolCallId: pending.toolCallId,
    })
  }
  return parts
}

async function stream(call: WrappedCall): Promise<SpecStreamResult> {
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

function inputText(input: unknown): string {
  return typeof input === 'string' ? input : JSON.stringify(input ?? {})
}

/** A call as the wrapper reports it: the toolkit's as provider-executed, the caller's as an ordinary call. */
function toolCallPart(
  call: { id: string; name: string; input: unknown },
  ownTool: boolean,
  providerMetadata: ProviderOptions | undefined,
): SpecContentPart {
  const part: SpecContentPart = {
    type: 'tool-call',
    toolCallId: call.id,
    toolName: call.name,
    input: inputText(call.input),
  }
  if (providerMetadata !== undefined) part.providerMetadata = providerMetadata
  if (ownTool) {
    part.providerExecuted = true
    part.dynamic = true
    part.providerMetadata = Object.assign({}, providerMetadata, { [TOOLNEXUS_MARK]: {} })
  }
  return part
}

function toolResultPart(record: {
  id: string
  name: string
  output: string
  isError: boolean
}): SpecContentPart {
  return {
    type: 'tool-result',
    toolCallId: record.id,
    toolName: record.name,
    result: record.output,
    isError: record.isError,
    providerExecuted: true,
    dynamic: true,
    providerMetadata: { [TOOLNEXUS_MARK]: {} },
  } as SpecContentPart
}

function emptyUsage(model: SpecLanguageModel): SpecGenerateResult['usage'] {
  return model.specificationVersion === 'v2'
    ? { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined }
    : { inputTokens: { total: undefined }, outputTokens: { total: undefined } }
}
