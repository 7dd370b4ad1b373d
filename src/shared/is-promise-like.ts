/**
 * True for a promise or any other object with a `then` method.
 *
 * @example
 * isPromiseLike(Promise.resolve(1)) // true
 * isPromiseLike({ then: 1 })         // false
 */
export function isPromiseLike<Value>(value: Value | PromiseLike<Value>): value is PromiseLike<Value> {
  return (
    typeof value === 'object' && value !== null && typeof (value as PromiseLike<Value>).then === 'function'
  )
}
