/**
 * Starts `run` for every item, with `context`, with at most `limit` running at once; the answers keep
 * item order: within the limit, what `run` gave (a value it had at once, or its promise), else promises.
 * `run`'s promises must be marked handled already; the ones made here for waiting items are. The context
 * is handed over, not closed over, so that a caller needs no closure of its own per run.
 *
 * @example
 * const results = runBounded(calls, 4, answerCall, run)
 */
export function runBounded<Item, Context, Value>(
  items: readonly Item[],
  limit: number,
  run: (item: Item, context: Context) => Value | Promise<Value>,
  context: Context,
): Array<Value | Promise<Value>> {
  if (items.length <= limit) {
    const answers: Array<Value | Promise<Value>> = new Array(items.length)
    for (let index = 0; index < items.length; index++) answers[index] = run(items[index] as Item, context)
    return answers
  }
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
          return await run(item, context)
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
