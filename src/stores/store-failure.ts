import { StoreError, type StoreOperation } from '../errors.js'
import { createSecretScrubber } from '../shared/scrub-secrets.js'
import { quoteId } from './quote-id.js'

/** Longest piece of a driver's message that goes into a `StoreError` message. */
const MAX_REASON_CHARS = 200

/**
 * The secrets in a connection URL worth masking wherever a driver might echo them: the URL itself, its
 * password (raw and decoded) and its user info.
 *
 * @example
 * connectionSecrets('redis://:hunter2@db:6379') // ['redis://:hunter2@db:6379', 'hunter2', ':hunter2']
 */
export function connectionSecrets(url: string | undefined): string[] {
  if (url === undefined) return []
  const secrets = [url]
  try {
    const parsed = new URL(url)
    if (parsed.password !== '') {
      secrets.push(parsed.password, decodeURIComponent(parsed.password))
      secrets.push(`${parsed.username}:${parsed.password}`)
    }
  } catch {
    // Not a URL: the whole text is masked.
  }
  return secrets
}

/**
 * Makes the `StoreError` for a failed database call: names the store, the operation and the
 * conversation, with the driver's reason (its code and message, secrets masked) and the driver's
 * error as `cause`.
 *
 * @example
 * throw storeFailure({ store: 'Redis', operation: 'load', id, error, secrets })
 */
export function storeFailure(options: {
  store: string
  operation: StoreOperation
  id: string | undefined
  error: unknown
  secrets: readonly string[]
}): StoreError {
  const { store, operation, id, error, secrets } = options
  if (StoreError.isInstance(error)) return error
  const scrub = createSecretScrubber(secrets)
  const what =
    operation === 'connect'
      ? 'connect'
      : operation === 'claim'
        ? `claim ${quoteId(id ?? '')}`
        : `${operation} conversation ${quoteId(id ?? '')}`
  const reason = scrub(describeError(error)) || 'unknown error'
  return new StoreError(`The ${store} store could not ${what}: ${reason}`, { operation, cause: error })
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, MAX_REASON_CHARS)
  // AggregateError (a host with several addresses) carries the real reasons inside.
  const inner = error instanceof AggregateError && error.errors.length > 0 ? error.errors[0] : error
  const message = inner instanceof Error ? inner.message : String(inner)
  const code = (inner as { code?: unknown }).code
  const text = typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message
  return (text === '' ? (inner?.constructor?.name ?? 'Error') : text).slice(0, MAX_REASON_CHARS)
}
