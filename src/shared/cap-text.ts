/** The default number of characters the toolkit lets any text it returns have. */
export const DEFAULT_MAX_OUTPUT_CHARS = 100_000

/**
 * The one cap on texts sent to a model: a tool's output and every text the toolkit writes itself
 * (unknown tool, invalid arguments). A text over `maxChars` is cut there, with a visible marker
 * saying how much was dropped.
 *
 * @example
 * capText('x'.repeat(12), 10) // 'xxxxxxxxxx\n…[output truncated: 2 more characters]'
 */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  return `${text.slice(0, Math.max(0, maxChars))}\n…[output truncated: ${text.length - Math.max(0, maxChars)} more characters]`
}

/**
 * A value to quote inside a message, cut to `maxChars` (a 200 KB tool name is quoted by its start).
 *
 * @example
 * quoteShort('a'.repeat(100), 8) // '"aaaaaaaa…" (100 characters)'
 */
export function quoteShort(text: string, maxChars = 80): string {
  if (text.length <= maxChars) return JSON.stringify(text)
  return `${JSON.stringify(text.slice(0, maxChars)).slice(0, -1)}…" (${text.length} characters)`
}
