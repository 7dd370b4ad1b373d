import type { RetryAdvice } from '../contracts/transport.js'
import { retryAfterFromHeaders } from '../loop/retry.js'

// The AI SDK's own rule: these client errors may succeed on a second try, every other 4xx never will.
const RETRYABLE_CLIENT_STATUS = new Set([408, 409, 429])

/**
 * Whether a failed AI SDK model call may succeed on another try, and when: the error's own
 * `isRetryable`, except a client error other than 408, 409 and 429, with the wait a `retry-after`
 * header asks for.
 *
 * @example
 * classifyAISDKError({ isRetryable: true, statusCode: 429 }) // { retryable: true, statusCode: 429 }
 */
export function classifyAISDKError(error: unknown): RetryAdvice {
  // Duck-typed rather than `APICallError.isInstance`, so any major of @ai-sdk/provider is recognized.
  if (typeof error !== 'object' || error === null) return { retryable: false }
  const { isRetryable, statusCode, responseHeaders } = error as {
    isRetryable?: unknown
    statusCode?: unknown
    responseHeaders?: unknown
  }
  const status = typeof statusCode === 'number' ? { statusCode } : {}
  if (typeof isRetryable !== 'boolean') return { retryable: false, ...status }
  const clientError =
    typeof statusCode === 'number' &&
    statusCode >= 400 &&
    statusCode < 500 &&
    !RETRYABLE_CLIENT_STATUS.has(statusCode)
  const retryAfterMs = retryAfterFromHeaders(responseHeaders)
  return {
    retryable: isRetryable && !clientError,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...status,
  }
}
