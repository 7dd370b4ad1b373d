import type { AbortError } from '../errors.js'

/** How transient model errors are retried. */
export interface RetryOptions {
  /** Retries after the first attempt. @default 2 */
  maxRetries?: number
  /** The first backoff, doubled on every further retry, before jitter. @default 500 */
  initialDelayMs?: number
  /** The longest wait, including a provider's `Retry-After`. @default 60000 */
  maxDelayMs?: number
}

/** Retry settings with every default filled in. */
export interface RetryPolicy {
  maxRetries: number
  initialDelayMs: number
  maxDelayMs: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 2, initialDelayMs: 500, maxDelayMs: 60_000 }

/**
 * The wait before retry number `attempt` (0-based): the provider's `Retry-After` when it sent one, else
 * exponential backoff with jitter (a uniform draw from the upper half, so concurrent clients spread out
 * without any retry coming back too early). Never more than `maxDelayMs`.
 *
 * @example
 * retryDelay({ attempt: 1, policy: DEFAULT_RETRY_POLICY }) // between 500 and 1000
 */
export function retryDelay(options: {
  attempt: number
  policy: RetryPolicy
  retryAfterMs?: number | undefined
}): number {
  const { attempt, policy, retryAfterMs } = options
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxDelayMs)
  const base = policy.initialDelayMs * 2 ** attempt
  return Math.min(base / 2 + Math.random() * (base / 2), policy.maxDelayMs)
}

/**
 * A provider's `Retry-After` in milliseconds, from response headers (any case): `retry-after-ms`, or
 * `retry-after` in whole seconds. An HTTP date or anything else is ignored.
 *
 * @example
 * retryAfterFromHeaders({ 'retry-after': '2' }) // 2000
 */
export function retryAfterFromHeaders(headers: unknown): number | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined
  let seconds: string | undefined
  let milliseconds: string | undefined
  for (const [key, value] of Object.entries(headers)) {
    if (typeof value !== 'string') continue
    const name = key.toLowerCase()
    if (name === 'retry-after') seconds = value.trim()
    else if (name === 'retry-after-ms') milliseconds = value.trim()
  }
  if (milliseconds !== undefined && /^\d+(\.\d+)?$/.test(milliseconds)) return Math.ceil(Number(milliseconds))
  if (seconds !== undefined && /^\d+$/.test(seconds)) return Number(seconds) * 1000
  return undefined
}

/**
 * Waits `ms`, or rejects with an `AbortError` as soon as `signal` aborts.
 *
 * @example
 * await sleep(500, scope.signal, () => scope.abortError())
 */
export function sleep(ms: number, signal: AbortSignal, abortError: () => AbortError): Promise<void> {
  if (signal.aborted) return Promise.reject(abortError())
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(abortError())
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
