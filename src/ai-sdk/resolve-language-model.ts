import type { LanguageModel } from 'ai'
import { ConfigError } from '../errors.js'
import type { SpecLanguageModel } from './language-model-spec.js'

const SPEC_VERSIONS = new Set(['v2', 'v3', 'v4'])

/**
 * A `LanguageModel` object checked against the specification, or a model id resolved the way the AI SDK
 * resolves it: `globalThis.AI_SDK_DEFAULT_PROVIDER`, else the AI Gateway from `ai`.
 *
 * @example
 * const model = await resolveLanguageModel('openai/gpt-5-mini') // through the gateway
 */
export function resolveLanguageModel(model: LanguageModel): SpecLanguageModel | Promise<SpecLanguageModel> {
  if (typeof model === 'string') {
    if (model.trim() === '') {
      throw new ConfigError(
        '`model` is an empty string: pass a model id like "openai/gpt-5-mini" or a model object.',
        { field: 'model' },
      )
    }
    return resolveModelId(model)
  }
  return checkLanguageModel(model)
}

async function resolveModelId(id: string): Promise<SpecLanguageModel> {
  const global = globalThis as { AI_SDK_DEFAULT_PROVIDER?: { languageModel(id: string): unknown } }
  // Loaded on demand: only a string id needs `ai` at run time, and it is a heavy import.
  const provider = global.AI_SDK_DEFAULT_PROVIDER ?? (await import('ai')).gateway
  return checkLanguageModel(provider.languageModel(id))
}

/**
 * A `LanguageModel` object checked against the specification: a wrong value fails here, with what to change.
 *
 * @example
 * const model = checkLanguageModel(openai("gpt-5-mini"))
 */
export function checkLanguageModel(model: unknown): SpecLanguageModel {
  const candidate = model as Partial<SpecLanguageModel> | null
  if (typeof candidate !== 'object' || candidate === null || typeof candidate.doGenerate !== 'function') {
    throw new ConfigError(
      '`model` must be an AI SDK LanguageModel (like `openai("gpt-5-mini")`) or a model id string.',
      { field: 'model' },
    )
  }
  if (!SPEC_VERSIONS.has(String(candidate.specificationVersion))) {
    throw new ConfigError(
      `\`model\` implements LanguageModel specification ${String(candidate.specificationVersion)}; toolnexus needs v2, v3 or v4. Upgrade the provider package (for example @ai-sdk/openai) to a current major.`,
      { field: 'model' },
    )
  }
  return candidate as SpecLanguageModel
}
