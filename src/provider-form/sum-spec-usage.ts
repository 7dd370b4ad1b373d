import type { SpecGenerateResult, SpecLanguageModel, SpecUsage } from '../ai-sdk/language-model-spec.js'

/**
 * Two model calls' token usage added up in the shape the model reports it (flat counts in v2, nested
 * `inputTokens.total` / `outputTokens.text` … in v3 and v4), so that a wrapper can report the sum of its
 * inner calls as one call's usage. A count missing from both stays missing; the provider's `raw` usage
 * is not summed (it has no common shape) and is left out.
 *
 * @example
 * sumSpecUsage({ inputTokens: { total: 3 }, outputTokens: { total: 1 } }, { inputTokens: { total: 4 }, outputTokens: { total: 2 } })
 * // { inputTokens: { total: 7 }, outputTokens: { total: 3 } }
 */
export function sumSpecUsage(
  total: SpecUsage | undefined,
  next: SpecUsage | undefined,
): SpecUsage | undefined {
  if (total === undefined) return next === undefined ? undefined : sumCounts({}, next)
  if (next === undefined) return total
  return sumCounts(total, next)
}

type Counts = { [key: string]: unknown }

function sumCounts<Shape extends object>(total: Shape, next: Shape): Shape {
  const sum: Counts = {}
  for (const key in next) addCount(sum, key, (total as Counts)[key], (next as Counts)[key])
  for (const key in total) {
    if (!(key in sum)) addCount(sum, key, (total as Counts)[key], (next as Counts)[key])
  }
  return sum as Shape
}

function addCount(sum: Counts, key: string, left: unknown, right: unknown): void {
  if (key === 'raw') return
  if (isCounts(left) || isCounts(right)) {
    sum[key] = sumCounts(isCounts(left) ? left : {}, isCounts(right) ? right : {})
  } else if (typeof left === 'number' || typeof right === 'number') {
    sum[key] = (typeof left === 'number' ? left : 0) + (typeof right === 'number' ? right : 0)
  } else if (left !== undefined || right !== undefined) {
    sum[key] = right ?? left
  }
}

function isCounts(value: unknown): value is Counts {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The usage a model of this specification version reports when it counted nothing: a wrapper that made
 * no inner call still answers with usage in its model's shape.
 *
 * @example
 * emptyUsage(model) // { inputTokens: { total: undefined }, outputTokens: { total: undefined } } for v3 and v4
 */
export function emptyUsage(model: SpecLanguageModel): SpecGenerateResult['usage'] {
  return model.specificationVersion === 'v2'
    ? { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined }
    : { inputTokens: { total: undefined }, outputTokens: { total: undefined } }
}
