import type { Usage } from '../contracts/run-types.js'

/**
 * Adds one turn's usage to a running total, in place.
 *
 * @example
 * addUsage(total, turn.usage)
 */
export function addUsage(total: Usage, turn: Usage): void {
  total.inputTokens += turn.inputTokens
  total.outputTokens += turn.outputTokens
  total.totalTokens += turn.totalTokens
}
