import { StoreError } from '../errors.js'
import { quoteId } from '../stores/quote-id.js'

/**
 * Runs one store operation; an error that is not already a `StoreError` (a store of your own) becomes
 * one, with the original as `cause` and its text left out of the message (it may hold a URL).
 *
 * @example
 * const loaded = await callStore('load', id, () => store.load(id))
 */
export async function callStore<Result>(
  operation: 'load' | 'save' | 'delete',
  id: string,
  call: () => Result | PromiseLike<Result>,
): Promise<Result> {
  try {
    return await call()
  } catch (error) {
    if (StoreError.isInstance(error)) throw error
    throw new StoreError(
      `The conversation store failed to ${operation} conversation ${quoteId(id)} (see cause).`,
      {
        operation,
        cause: error,
      },
    )
  }
}
