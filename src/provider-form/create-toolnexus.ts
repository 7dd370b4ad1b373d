import { ConfigError } from '../errors.js'
import {
  checkWithToolkitOptions,
  type LanguageModelObject,
  type WithToolkitOptions,
  withToolkit,
} from './with-toolkit.js'

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
  checkWithToolkitOptions(wrapOptions)
  const languageModel = (modelId: Parameters<Provider>[0]): ReturnType<Provider> =>
    withToolkit(provider(modelId) as ReturnType<Provider>, wrapOptions)
  return Object.assign(languageModel, { languageModel })
}
