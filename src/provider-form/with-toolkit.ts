import type { LanguageModel } from 'ai'
import type { SpecLanguageModel, SpecMessage } from '../ai-sdk/language-model-spec.js'
import { checkLanguageModel } from '../ai-sdk/resolve-language-model.js'
import { ConfigError } from '../errors.js'
import { type LoopOptions as ClientOptions, readSettings } from '../loop/settings.js'
import type { Logger } from '../shared/logger.js'
import type { Toolkit } from '../toolkit/create-toolkit.js'
import { generateWithToolkit } from './generate-with-toolkit.js'
import { type CallerOptions, WrappedModel } from './provider-form-transport.js'
import { streamWithToolkit } from './stream-with-toolkit.js'
import { type WrappedCall, wrappedCall } from './wrapped-call.js'

/** A `LanguageModel` object (not a model id string), of any specification version `ai` accepts. */
export type LanguageModelObject = Exclude<LanguageModel, string>

/** What `withToolkit` takes besides the model: the toolkit, and the loop's options. */
export interface WithToolkitOptions extends Omit<ClientOptions<SpecMessage>, 'store'> {
  /** The tools the loop runs itself. The AI SDK sees their calls and results as provider-executed. */
  toolkit: Toolkit
  /**
   * Declare every toolkit tool in strict mode (OpenAI Structured Outputs), as `createClient({ strict })`
   * does: each schema rewritten into the form strict mode accepts, the model's `null` for an optional
   * argument read as absent. A tool strict mode cannot take is declared without it, with a warning.
   *
   * @default false
   */
  strict?: boolean
  /**
   * Where the wrapper writes what it notices (a tool that strict mode cannot take, sent without it), as
   * `createClient({ logger })` does. The toolkit that holds the tool hears it too, through its own `logger`.
   *
   * @default the toolkit's logger only
   */
  logger?: Logger
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
  const { toolkit, strict, logger, ...clientOptions } = checkWithToolkitOptions(options)
  // Its guard claims every answered run once (in `claims`, else the process's guard).
  const settings = readSettings(clientOptions, 'ai-sdk', 'withToolkit')
  const wrappedModel = new WrappedModel(inner, {
    strict: strict === true,
    ...(logger !== undefined && { logger }),
  })
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
    doGenerate: (callOptions) => generateWithToolkit(callOf(callOptions)),
    doStream: (callOptions) => streamWithToolkit(callOf(callOptions)),
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

/**
 * `withToolkit`'s options checked: a clear error when `toolkit` is missing or is not a Toolkit.
 *
 * @example
 * checkWithToolkitOptions({ toolkit }) // the options, as given
 */
export function checkWithToolkitOptions(options: WithToolkitOptions): WithToolkitOptions {
  const toolkit = options?.toolkit
  if (typeof toolkit?.tools !== 'function' || typeof toolkit.execute !== 'function') {
    throw new ConfigError(
      'withToolkit needs `toolkit`, a Toolkit from createToolkit(...): withToolkit(model, { toolkit }).',
    )
  }
  return options
}
