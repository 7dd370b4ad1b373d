import type { ModelMessage } from 'ai'
import { createAISDKTransport } from '../ai-sdk/ai-sdk-transport.js'
import { resolveLanguageModel } from '../ai-sdk/resolve-language-model.js'
import type { Transport } from '../contracts/transport.js'
import { toModelUserMessage } from '../conversation/user-message.js'
import { ConfigError } from '../errors.js'
import type {
  GenAIClientLike,
  GenAIGenerationConfig as SDKGenerationConfig,
} from '../genai/create-genai-transport.js'
import type { GenAIContent } from '../genai/genai-types.js'
import type { Client } from './client.js'
import type { AISDKClientOptions, GenAIClientOptions, GenAIMessage } from './client-options.js'
import { LoopClient } from './loop-client.js'
import { toGenAIUserContent } from './to-genai-user-content.js'

/**
 * Creates the tool-calling client. Pass any AI SDK model — swapping providers is one line — or a
 * `@google/genai` client and a Gemini model id.
 *
 * @example
 * import { openai } from '@ai-sdk/openai'
 * const client = createClient({ model: openai('gpt-5-mini'), system: 'You are terse.' })
 * // const client = createClient({ model: anthropic('claude-sonnet-4-5') })
 * // const client = createClient({ genai: new GoogleGenAI({ apiKey }), model: 'gemini-2.5-flash' })
 * const result = await client.run('Weather in Chennai?', { toolkit })
 * console.log(result.text, result.toolCalls, result.usage)
 */
export function createClient(options: AISDKClientOptions): Client<ModelMessage>
export function createClient(options: GenAIClientOptions): Client<GenAIMessage>
export function createClient(
  options: AISDKClientOptions | GenAIClientOptions,
): Client<ModelMessage> | Client<GenAIMessage> {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigError(
      'createClient needs an options object, like createClient({ model: openai("gpt-5-mini") }).',
    )
  }
  if (options.genai !== undefined) {
    const { genai, model, config, schema } = options
    checkGenAI(genai, model)
    // The public option types are structural copies of the SDK's (so that no declaration imports the
    // optional @google/genai); the values are the SDK's own, which the transport types by the SDK.
    const sdkGenAI = genai as unknown as GenAIClientLike
    const sdkConfig = config as SDKGenerationConfig | undefined
    const transport = import('../genai/create-genai-transport.js').then(
      (module) =>
        module.createGenAITransport({
          genai: sdkGenAI,
          model,
          ...(sdkConfig === undefined ? {} : { config: sdkConfig }),
          ...(schema === undefined ? {} : { schema }),
          ...(options.logger !== undefined && { logger: options.logger }),
        }) as unknown as Transport<GenAIContent>,
    )
    // Surfaced on the first run; here it would be an unhandled rejection.
    transport.catch(() => {})
    return new LoopClient(transport, options, 'genai', async (parts) => toGenAIUserContent(parts))
  }
  if (options.model === undefined || options.model === null) {
    throw new ConfigError(
      '`model` is missing: pass an AI SDK model like openai("gpt-5-mini"), a model id string like "openai/gpt-5-mini", or { genai, model: "gemini-2.5-flash" } for @google/genai.',
      { field: 'model' },
    )
  }
  const model = resolveLanguageModel(options.model)
  const transportOptions = {
    strict: options.strict === true,
    ...(options.logger !== undefined && { logger: options.logger }),
  }
  const transport =
    model instanceof Promise
      ? model.then((resolved) => createAISDKTransport({ ...transportOptions, model: resolved }))
      : createAISDKTransport({ ...transportOptions, model })
  if (transport instanceof Promise) transport.catch(() => {})
  return new LoopClient<ModelMessage>(transport, options, 'ai-sdk', toModelUserMessage)
}

function checkGenAI(genai: unknown, model: unknown): void {
  const models = (genai as { models?: { generateContent?: unknown; generateContentStream?: unknown } } | null)
    ?.models
  if (typeof models?.generateContent !== 'function' || typeof models.generateContentStream !== 'function') {
    throw new ConfigError(
      '`genai` must be a GoogleGenAI instance from @google/genai: new GoogleGenAI({ apiKey }).',
      { field: 'genai' },
    )
  }
  if (typeof model !== 'string' || model.trim() === '') {
    throw new ConfigError('With `genai`, `model` must be a Gemini model id string, like "gemini-2.5-flash".')
  }
}
