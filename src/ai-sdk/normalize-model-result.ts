import type { Usage } from '../contracts/run-types.js'
import type { SpecFinishReason, SpecUsage } from './language-model-spec.js'

/**
 * Token usage of any spec version as flat numbers: v2 reports flat counts, v3 and v4 nest them under
 * `inputTokens.total` / `outputTokens.total` and report no total. Missing counts are 0.
 *
 * @example
 * normalizeUsage({ inputTokens: { total: 3 }, outputTokens: { total: 4 } }) // { inputTokens: 3, outputTokens: 4, totalTokens: 7 }
 */
export function normalizeUsage(usage: SpecUsage | undefined): Usage {
  if (usage === undefined || usage === null) return { inputTokens: 0, outputTokens: 0, totalTokens: 0 }
  const input = count(usage.inputTokens)
  const output = count(usage.outputTokens)
  const total =
    'totalTokens' in usage && typeof usage.totalTokens === 'number' ? usage.totalTokens : input + output
  return { inputTokens: input, outputTokens: output, totalTokens: total }
}

function count(value: number | { total?: number | undefined } | undefined): number {
  if (typeof value === 'number') return value
  if (typeof value === 'object' && value !== null && typeof value.total === 'number') return value.total
  return 0
}

/**
 * The unified finish reason of any spec version: v2 sends it as a string, v3 and v4 as `{ unified, raw }`.
 *
 * @example
 * normalizeFinishReason({ unified: 'tool-calls', raw: 'tool_use' }) // 'tool-calls'
 */
export function normalizeFinishReason(reason: SpecFinishReason | undefined): string {
  if (typeof reason === 'string') return reason
  if (typeof reason === 'object' && reason !== null && typeof reason.unified === 'string')
    return reason.unified
  return 'other'
}
