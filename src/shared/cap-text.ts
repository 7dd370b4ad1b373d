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

/**
 * A JSON-like value whose strings together hold at most `maxChars` characters: past that, strings are cut
 * (with a marker) or emptied, so metadata kept beside a capped output (an MCP result's `content`) is
 * bounded like the output. Returns `value` itself when it is within the budget. Depth beyond 64 is
 * replaced by a note.
 *
 * @example
 * capStrings({ content: [{ text: 'x'.repeat(50) }] }, 10) // { content: [{ text: 'xxxxxxxxxx…[cut: 40 more characters]' }] }
 */
export function capStrings(value: unknown, maxChars: number): unknown {
  const budget = { left: Math.max(0, maxChars) }
  return capWithin(value, budget, 0)
}

function capWithin(value: unknown, budget: { left: number }, depth: number): unknown {
  if (typeof value === 'string') {
    if (value.length <= budget.left) {
      budget.left -= value.length
      return value
    }
    const kept = value.slice(0, budget.left)
    budget.left = 0
    return `${kept}…[cut: ${value.length - kept.length} more characters]`
  }
  if (typeof value !== 'object' || value === null) return value
  if (depth >= 64) return '[nested too deeply]'
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    for (let index = 0; index < value.length; index++) {
      const capped = capWithin(value[index], budget, depth + 1)
      if (capped !== value[index]) {
        copy ??= value.slice()
        copy[index] = capped
      }
    }
    return copy ?? value
  }
  let copy: Record<string, unknown> | undefined
  for (const [key, child] of Object.entries(value)) {
    const capped = capWithin(child, budget, depth + 1)
    if (capped === child) continue
    copy ??= { ...value }
    Object.defineProperty(copy, key, { value: capped, enumerable: true, writable: true, configurable: true })
  }
  return copy ?? value
}
