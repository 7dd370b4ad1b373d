/**
 * A value or a promise of it: what a hook, a store or a callback may return.
 *
 * @example
 * const load = (id: string): Awaitable<string | undefined> => cache.get(id) ?? fetchFromDatabase(id)
 */
export type Awaitable<T> = T | PromiseLike<T>
