import type { SpecFunctionTool, SpecLanguageModel, SpecProviderTool } from './language-model-spec.js'

/** A provider's own tool search: the provider tool to declare and where a tool's `deferLoading` goes. */
export interface NativeToolSearch {
  id: string
  name: string
  options: string
}

/**
 * The tool search a model's provider runs itself, by the provider name its package gives: Anthropic's
 * Messages API (the BM25 tool search tool) and OpenAI's Responses API (`tool_search`).
 *
 * @example
 * nativeToolSearchOf(anthropic('claude-sonnet-4-5')) // { id: 'anthropic.tool_search_bm25_20251119', ... }
 * nativeToolSearchOf(openai.chat('gpt-5-mini'))      // undefined
 */
export function nativeToolSearchOf(model: SpecLanguageModel): NativeToolSearch | undefined {
  const provider = String(model.provider)
  if (provider === 'anthropic.messages') {
    return { id: 'anthropic.tool_search_bm25_20251119', name: 'tool_search', options: 'anthropic' }
  }
  if (provider === 'openai.responses')
    return { id: 'openai.tool_search', name: 'tool_search', options: 'openai' }
  return undefined
}

/**
 * Every tool, the deferred ones marked so, then the provider's tool search tool.
 *
 * @example
 * withNativeToolSearch({ declarations, deferred: new Set(['rare_tool']), search, version: 'v4' })
 */
export function withNativeToolSearch(options: {
  declarations: readonly SpecFunctionTool[]
  deferred: ReadonlySet<string>
  search: NativeToolSearch
  version: SpecLanguageModel['specificationVersion']
}): Array<SpecFunctionTool | SpecProviderTool> {
  const { deferred, search } = options
  return [
    ...options.declarations.map((declaration) =>
      deferred.has(declaration.name)
        ? { ...declaration, providerOptions: { [search.options]: { deferLoading: true } } }
        : declaration,
    ),
    {
      type: options.version === 'v2' ? 'provider-defined' : 'provider',
      id: search.id,
      name: search.name,
      args: {},
    },
  ]
}
