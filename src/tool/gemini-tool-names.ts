import { geminiToolName } from './names.js'
import type { Tool } from './types.js'

/**
 * Whether a model's provider, by the name its AI SDK package gives it, hands tool names to Gemini as they
 * are: `google.generative-ai` (`@ai-sdk/google`) and `google.vertex.chat` (`@ai-sdk/google-vertex`) do, and
 * so does plain `google`.
 *
 * @example
 * sendsNamesToGemini('google.generative-ai') // true
 * sendsNamesToGemini('openai.chat')          // false
 */
export function sendsNamesToGemini(provider: string): boolean {
  return /^google(\.|$)/.test(provider)
}

const EMPTY: ReadonlyMap<string, string> = new Map()
const cache = new WeakMap<readonly Tool[], ReadonlyMap<string, string>>()

/**
 * The tools' own names by the names they are declared under for Gemini, for the tools whose names differ
 * (see `geminiToolName`), so a model's call comes back under the tool's own name. Empty when no name
 * differs, which is the common case; one map per tool list.
 *
 * @example
 * ownNamesByGeminiName([onePassword]) // Map { '_1password_get_item' => '1password_get_item' }
 */
export function ownNamesByGeminiName(tools: readonly Tool[]): ReadonlyMap<string, string> {
  let names = cache.get(tools)
  if (names === undefined) {
    const own = new Set(tools.map((tool) => tool.name))
    const renamed = new Map<string, string>()
    for (const name of own) {
      const sentAs = geminiToolName(name)
      // A tool that already has the Gemini name keeps it: the call is that tool's.
      if (sentAs !== name && !own.has(sentAs)) renamed.set(sentAs, name)
    }
    names = renamed.size === 0 ? EMPTY : renamed
    cache.set(tools, names)
  }
  return names
}

/**
 * The name a tool goes to Gemini under, given the list's `ownNamesByGeminiName`: the Gemini name where the
 * tool is renamed, else its own.
 *
 * @example
 * sentToGemini('1password_get_item', ownNamesByGeminiName(tools)) // '_1password_get_item'
 */
export function sentToGemini(name: string, ownNames: ReadonlyMap<string, string>): string {
  if (ownNames.size === 0) return name
  const sent = geminiToolName(name)
  return ownNames.get(sent) === name ? sent : name
}
