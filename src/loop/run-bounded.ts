/**
 * Starts `run` for every item with at most `limit` running at once; the answers keep item order: within
 * the limit, what `run` gave (a value it had at once, or its promise), else promises. `run`'s promises
 * must be marked handled already; the ones made here for waiting items are.
 *
 * @example
 * const results = runBounded(calls, 4, (call) => answer(call))
 */
export function runBounded<Item, Value>(
  items: readonly Item[],
  limit: number,
  run: (item: Item) => Value | Promise<Value>,
): Array<Value | Promise<Value>> {
  if (items.length <= limit) return items.map(run)
  let active = 0
  const waiting: Array<() => void> = []
  const release = (): void => {
    active--
    waiting.shift()?.()
  }
  return items.map((item) =>
    settleQuietly(
      (async () => {
        if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve))
        active++
        try {
          return await run(item)
        } finally {
          release()
        }
      })(),
    ),
  )
}

/**
 * The same promise, marked handled: the loop may stop awaiting (abort, a hook's throw) before it settles.
 *
 * @example
 * const answer = settleQuietly(runHook())
 */
export function settleQuietly<Value>(promise: Promise<Value>): Promise<Value> {
  promise.catch(() => {})
  return promise
}
