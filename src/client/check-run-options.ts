import type { RunOptions } from '../contracts/run-types.js'
import { ConfigError } from '../errors.js'
import { checkRunId } from './durable-run.js'

/**
 * Checks a run's prompt and options: a wrong value fails before anything runs, with what to change.
 *
 * @example
 * checkRunOptions('Hi', { toolkit, history: [] })
 */
export function checkRunOptions<Message>(prompt: string | Message[], options: RunOptions<Message>): void {
  if (typeof prompt !== 'string' && !Array.isArray(prompt)) {
    throw new ConfigError('The prompt must be a string or an array of messages.')
  }
  if (typeof options !== 'object' || options === null) {
    throw new ConfigError('The run options must be an object, like { toolkit, history, signal }.')
  }
  const { toolkit, history, signal, system } = options
  checkRunId(options.runId)
  if (system !== undefined && typeof system !== 'string') {
    throw new ConfigError('The run option `system` must be a string (a system prompt for this run).', {
      field: 'system',
    })
  }
  if (
    toolkit !== undefined &&
    (typeof toolkit?.tools !== 'function' || typeof toolkit.execute !== 'function')
  ) {
    throw new ConfigError('`toolkit` must be a Toolkit from createToolkit(...).', { field: 'toolkit' })
  }
  if (history !== undefined && !Array.isArray(history)) {
    throw new ConfigError('`history` must be an array of messages, like a previous result.messages.', {
      field: 'history',
    })
  }
  // Checked by shape: a signal from another realm (Next's edge runtime) fails `instanceof`.
  if (signal !== undefined && !isAbortSignalLike(signal)) {
    throw new ConfigError('`signal` must be an AbortSignal, like AbortSignal.timeout(30_000).', {
      field: 'signal',
    })
  }
}

function isAbortSignalLike(value: unknown): value is AbortSignal {
  const candidate = value as Partial<AbortSignal> | null
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.aborted === 'boolean' &&
    typeof candidate.addEventListener === 'function'
  )
}
