import type { ToolResult } from '../tool/types.js'
import type { ToolRunner } from './toolkit.js'

/**
 * A call run by exposed name as a toolkit's `execute` runs it, its arguments and context positional, and
 * its result handed back as it is when the tool answers synchronously (else its promise). Never throws,
 * and a promise it hands back never rejects.
 */
export type DirectRun = (
  name: string,
  args: Record<string, unknown>,
  toolCallId: string,
  idempotencyKey: string | undefined,
  signal: AbortSignal | undefined,
) => ToolResult | Promise<ToolResult>

// Kept beside the toolkit rather than on its public interface: only the loop asks.
const directRuns = new WeakMap<object, { run: DirectRun; execute: ToolRunner['execute'] }>()

/**
 * Records how the loop may run a toolkit's calls without a promise for a tool that answers at once: `run`
 * stands for `execute`, the toolkit's own method, for as long as the toolkit's `execute` is that one.
 *
 * @example
 * registerDirectRun(toolkit, DefaultToolkit.prototype.execute, (name, args, toolCallId) => run(name, args))
 */
export function registerDirectRun(toolkit: object, execute: ToolRunner['execute'], run: DirectRun): void {
  directRuns.set(toolkit, { run, execute })
}

/**
 * The direct run of a toolkit made by `createToolkit`; `undefined` for a toolkit made elsewhere, or whose
 * `execute` was replaced or overridden since (the loop then calls its `execute`, as it always did).
 *
 * @example
 * const direct = directRunOf(toolkit)
 */
export function directRunOf(toolkit: ToolRunner): DirectRun | undefined {
  const direct = directRuns.get(toolkit)
  return direct !== undefined && direct.execute === toolkit.execute ? direct.run : undefined
}
