import { createServer } from 'node:net'
import { ApiError } from '@google/genai'
import { describe, expect, it } from 'vitest'
import { classifyGenAIError } from '../../src/genai/classify-genai-error.js'
import { genaiFor } from '../support/scripted-gemini.js'

/** An ApiError as the SDK builds it from a Gemini error body. */
function apiError(status: number, details?: unknown[]): ApiError {
  const body = { error: { code: status, message: 'scripted', status: 'X', ...(details ? { details } : {}) } }
  return new ApiError({ status, message: JSON.stringify(body) })
}

const retryInfo = (retryDelay: string) => [
  { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay },
]

describe('classifyGenAIError', () => {
  it.each([
    ['400 INVALID_ARGUMENT', apiError(400), { retryable: false, statusCode: 400 }],
    ['401', apiError(401), { retryable: false, statusCode: 401 }],
    ['403', apiError(403), { retryable: false, statusCode: 403 }],
    ['404', apiError(404), { retryable: false, statusCode: 404 }],
    ['408', apiError(408), { retryable: true, statusCode: 408 }],
    ['409', apiError(409), { retryable: true, statusCode: 409 }],
    ['429', apiError(429), { retryable: true, statusCode: 429 }],
    [
      '429 with RetryInfo 37s',
      apiError(429, retryInfo('37s')),
      { retryable: true, retryAfterMs: 37_000, statusCode: 429 },
    ],
    [
      '429 with RetryInfo 1.5s',
      apiError(429, retryInfo('1.5s')),
      { retryable: true, retryAfterMs: 1_500, statusCode: 429 },
    ],
    ['500', apiError(500), { retryable: true, statusCode: 500 }],
    ['503', apiError(503), { retryable: true, statusCode: 503 }],
    ['an abort', new DOMException('This operation was aborted', 'AbortError'), { retryable: false }],
    ['a timeout', new DOMException('The operation timed out', 'TimeoutError'), { retryable: false }],
    ['a plain error', new Error('exception parsing stream chunk'), { retryable: false }],
    ['not an error', 'boom', { retryable: false }],
    [
      'a connection reset',
      new TypeError('fetch failed', {
        cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      }),
      { retryable: true },
    ],
    [
      'an error with response headers',
      Object.assign(new Error('429 slow down'), {
        status: 429,
        headers: new Headers({ 'retry-after': '3' }),
      }),
      { retryable: true, retryAfterMs: 3_000, statusCode: 429 },
    ],
  ])('%s', (_name, error, advice) => {
    expect(classifyGenAIError(error)).toStrictEqual(advice)
  })

  it('calls a refused connection from the real SDK retryable', async () => {
    // A port that was free a moment ago: nothing listens there now.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address()
        probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0))
      })
    })
    const genai = genaiFor(`http://127.0.0.1:${port}`)
    const error = await genai.models
      .generateContent({ model: 'm', contents: 'hi' })
      .catch((failure: unknown) => failure)
    expect(classifyGenAIError(error)).toStrictEqual({ retryable: true })
  })
})
