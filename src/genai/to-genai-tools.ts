import type { Tool as GenAITool } from '@google/genai'
import { type GeminiToolWrapper, type ToGeminiOptions, toGemini } from '../adapters/to-gemini.js'
import type { Tool } from '../tool/types.js'
import type { Toolkit } from '../toolkit/toolkit.js'

/**
 * `toGemini`, typed as whatever `config.tools` of `generateContent` expects (`@google/genai`'s own
 * `ToolListUnion`): the type comes from where the result goes. The value is exactly `toGemini`'s (one
 * wrapper holding every declaration); only its type differs. toolnexus types the lowered schema by its
 * wire spelling (`type: 'object'`, numeric `maxItems`), which the SDK types as its `Type` enum and int64
 * strings — so `toolkit.toGemini()` works as is in JavaScript, and in TypeScript this spares you the
 * cast. (Naming the SDK's type here would make toolnexus's declarations need `@google/genai` installed.)
 * Stored in a variable first, give the type: `const tools: ToolListUnion = toGenAITools(toolkit)`.
 *
 * @param source - A toolkit, or the tools to declare.
 * @param options - As `toGemini`'s: `{ parametersJsonSchema: true }` sends each JSON Schema unchanged.
 * @example
 * const response = await ai.models.generateContent({
 *   model: 'gemini-2.5-flash',
 *   contents,
 *   config: { tools: toGenAITools(toolkit) },
 * })
 */
export function toGenAITools<GenAITools = GeminiToolWrapper[]>(
  source: Pick<Toolkit, 'tools'> | readonly Tool[],
  options: ToGeminiOptions = {},
): GenAITools {
  const tools = isToolList(source) ? source : source.tools()
  return [asGenAITool(toGemini(tools, options)[0])] as GenAITools
}

/**
 * A `toGemini` wrapper as the SDK's `Tool`: the same wire shape, typed the SDK's way (the one cast, here
 * for the reason given on {@link toGenAITools}). The SDK rewrites each declaration's `parameters` in place
 * while it builds a request body, so it gets its own copy of each declaration: a cached wrapper stays as
 * toGemini made it.
 *
 * @example
 * const config = { tools: [asGenAITool(toGemini(tools)[0])] }
 */
export function asGenAITool(wrapper: GeminiToolWrapper): GenAITool {
  const functionDeclarations = wrapper.functionDeclarations.map((declaration) => ({ ...declaration }))
  return { functionDeclarations } as unknown as GenAITool
}

function isToolList(source: Pick<Toolkit, 'tools'> | readonly Tool[]): source is readonly Tool[] {
  return Array.isArray(source)
}
