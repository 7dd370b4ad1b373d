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
 * The wait before retry number `attempt` (0-based): the provider's `Retry-After` when it sent a sane one
 * (a finite number of milliseconds from 0 to a day), else exponential backoff with jitter (a uniform draw
 * from the upper half, so concurrent clients spread out without any retry coming back too early). A
 * `Retry-After` out of range (`99999999999999999999`, a negative or garbled value) is not waited for: it
 * gets the normal backoff. Never more than `maxDelayMs`.
 *
 * @example
 * retryDelay({ attempt: 1, policy: DEFAULT_RETRY_POLICY }) // between 500 and 1000
 * retryDelay({ attempt: 0, policy: DEFAULT_RETRY_POLICY, retryAfterMs: 2000 }) // 2000
 * retryDelay({ attempt: 0, policy: DEFAULT_RETRY_POLICY, retryAfterMs: 1e23 }) // between 250 and 500
 */
export function retryDelay(options: {
  attempt: number
  policy: RetryPolicy
  retryAfterMs?: number | undefined
}): number {
  const { attempt, policy, retryAfterMs } = options
  if (isSaneRetryAfter(retryAfterMs)) return Math.min(retryAfterMs, policy.maxDelayMs)
  const base = policy.initialDelayMs * 2 ** attempt
  return Math.min(base / 2 + Math.random() * (base / 2), policy.maxDelayMs)
}

/** The longest `Retry-After` taken as meant (a day); a longer one is garbage and gets the normal backoff. */
const MAX_SANE_RETRY_AFTER_MS = 86_400_000

function isSaneRetryAfter(retryAfterMs: number | undefined): retryAfterMs is number {
  return (
    typeof retryAfterMs === 'number' &&
    Number.isFinite(retryAfterMs) &&
    retryAfterMs >= 0 &&
    retryAfterMs <= MAX_SANE_RETRY_AFTER_MS
  )
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
  // More digits than any sane wait has are garbage, not a wait of centuries.
  if (milliseconds !== undefined && /^\d{1,12}(\.\d+)?$/.test(milliseconds))
    return Math.ceil(Number(milliseconds))
  if (seconds !== undefined && /^\d{1,9}$/.test(seconds)) return Number(seconds) * 1000
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
