import type { GenerateContentResponseUsageMetadata } from '@google/genai'
import type { Usage } from '../contracts/run-types.js'

/**
 * A Gemini `usageMetadata` as loop usage. Input counts the prompt and any tool-use prompt; output counts
 * the answer and the thinking (both are billed as output) — the same sums the AI SDK's Google provider
 * makes, so a run reports the same figures over either transport. Missing counts are 0; a missing total
 * is input + output.
 *
 * @example
 * convertGeminiUsage({ promptTokenCount: 10, candidatesTokenCount: 4, thoughtsTokenCount: 2, totalTokenCount: 16 })
 * // { inputTokens: 10, outputTokens: 6, totalTokens: 16 }
 */
export function convertGeminiUsage(usage: GenerateContentResponseUsageMetadata | undefined): Usage {
  if (usage === undefined) return { inputTokens: 0, outputTokens: 0, totalTokens: 0 }
  const inputTokens = (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0)
  const outputTokens = (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0)
  return { inputTokens, outputTokens, totalTokens: usage.totalTokenCount ?? inputTokens + outputTokens }
}
