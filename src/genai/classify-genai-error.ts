import type { RetryAdvice } from '../contracts/transport.js'

// Codes of a connection that failed or dropped: worth another attempt.
const NETWORK_ERROR_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
])

/**
 * Whether a failed `@google/genai` call may be retried. The SDK's `ApiError` carries the HTTP `status`:
 * 408, 409, 429 and 5xx are transient (as the AI SDK transport treats them). It carries no headers, but Gemini states its wait in the error body
 * (`google.rpc.RetryInfo`, `"retryDelay": "37s"`), which the SDK puts in the message: that wait is
 * honoured. Errors that do carry headers (the SDK's newer `APIError` classes) are read for
 * `Retry-After` in whole seconds. A dropped or refused connection is retryable; an abort or a timeout
 * of the caller's signal never is.
 *
 * @example
 * classifyGenAIError(new ApiError({ status: 503, message: '{"error":{"code":503}}' })) // { retryable: true }
 * classifyGenAIError(new ApiError({ status: 400, message: 'bad' })) // { retryable: false }
 */
export function classifyGenAIError(error: unknown): RetryAdvice {
  if (!(error instanceof Error)) return { retryable: false }
  if (error.name === 'AbortError' || error.name === 'TimeoutError' || error.name === 'APIUserAbortError') {
    return { retryable: false }
  }
  const status = readStatus(error)
  if (status !== undefined) {
    if (status !== 408 && status !== 409 && status !== 429 && status < 500) {
      return { retryable: false, statusCode: status }
    }
    const retryAfterMs = readRetryAfterHeader(error) ?? readRetryDelay(error.message)
    return retryAfterMs === undefined
      ? { retryable: true, statusCode: status }
      : { retryable: true, retryAfterMs, statusCode: status }
  }
  return { retryable: isNetworkError(error) }
}

function readStatus(error: Error): number | undefined {
  const status = Reflect.get(error, 'status')
  return typeof status === 'number' && status >= 400 && status < 600 ? status : undefined
}

function readRetryAfterHeader(error: Error): number | undefined {
  const headers: unknown = Reflect.get(error, 'headers')
  if (
    !(
      typeof headers === 'object' &&
      headers !== null &&
      'get' in headers &&
      typeof headers.get === 'function'
    )
  ) {
    return undefined
  }
  const value: unknown = headers.get('retry-after')
  // More digits than any sane wait has are garbage; the loop also ignores a wait past its `maxDelayMs`.
  return typeof value === 'string' && /^\s*\d{1,9}\s*$/.test(value) ? Number(value) * 1000 : undefined
}

// `"retryDelay": "37s"` (or "1.5s") anywhere in the error text.
const RETRY_DELAY_PATTERN = /"retryDelay"\s*:\s*"(\d{1,9}(?:\.\d{1,9})?)s"/

function readRetryDelay(message: string): number | undefined {
  const match = RETRY_DELAY_PATTERN.exec(message)
  return match?.[1] === undefined ? undefined : Math.ceil(Number(match[1]) * 1000)
}

function isNetworkError(error: Error): boolean {
  // Node's fetch reports every transport failure as `TypeError: fetch failed`, with the reason as `cause`.
  if (error.name === 'TypeError' && error.message === 'fetch failed') return true
  // A few levels only: a cause chain can loop.
  let cause: unknown = error
  for (let depth = 0; depth < 5 && cause instanceof Error; depth++, cause = cause.cause) {
    const code = Reflect.get(cause, 'code')
    if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) return true
  }
  return false
}
