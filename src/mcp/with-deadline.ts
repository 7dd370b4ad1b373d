/**
 * A phase of talking to a server that took longer than it was allowed.
 *
 * @example
 * if (error instanceof PhaseTimeoutError) console.warn(error.message) // 'no answer to initialize within 30000 ms'
 */
export class PhaseTimeoutError extends Error {
  override readonly name = 'PhaseTimeoutError'
}

/**
 * `work`, or a rejection with a `PhaseTimeoutError` saying which phase ran out of time after `ms`. The work
 * itself is not stopped; the caller tears down what it started.
 *
 * @example
 * await withDeadline(client.listTools(), { ms: 30_000, phase: 'list tools' })
 */
export function withDeadline<T>(work: Promise<T>, options: { ms: number; phase: string }): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new PhaseTimeoutError(`no answer to ${options.phase} within ${options.ms} ms`)),
      options.ms,
    )
  })
  return Promise.race([work, expired]).finally(() => clearTimeout(timer))
}
