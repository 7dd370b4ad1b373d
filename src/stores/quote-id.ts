/**
 * A conversation id for an error message: quoted, and cut at 80 characters (ids can come from browsers).
 *
 * @example
 * quoteId('user-1') // '"user-1"'
 */
export function quoteId(id: string): string {
  return JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id)
}
