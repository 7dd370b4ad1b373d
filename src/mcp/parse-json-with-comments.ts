/**
 * Parses JSON that may carry `//` and `/* *\/` comments and trailing commas (VS Code's and opencode's
 * `mcp.json` allow both). Throws `SyntaxError` for anything else that is not JSON.
 *
 * @example
 * parseJsonWithComments('{ "a": 1, // note\n }') // { a: 1 }
 */
export function parseJsonWithComments(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    const relaxed = stripCommentsAndTrailingCommas(text)
    if (relaxed === text) throw error
    try {
      return JSON.parse(relaxed)
    } catch {
      // The error of the original text points at the place the author wrote.
      throw error
    }
  }
}

/** The text with comments blanked (line breaks kept, so positions stay on the same line) and trailing commas removed. */
function stripCommentsAndTrailingCommas(text: string): string {
  let output = ''
  let index = 0
  while (index < text.length) {
    const char = text[index]
    const next = text[index + 1]
    if (char === '"') {
      const end = endOfString(text, index)
      output += text.slice(index, end)
      index = end
    } else if (char === '/' && next === '/') {
      const end = text.indexOf('\n', index)
      index = end === -1 ? text.length : end
    } else if (char === '/' && next === '*') {
      const end = text.indexOf('*/', index + 2)
      const stop = end === -1 ? text.length : end + 2
      output += text.slice(index, stop).replace(/[^\n]/g, ' ')
      index = stop
    } else {
      output += char
      index++
    }
  }
  return withoutTrailingCommas(output)
}

function withoutTrailingCommas(text: string): string {
  let output = ''
  let index = 0
  while (index < text.length) {
    const char = text[index]
    if (char === '"') {
      const end = endOfString(text, index)
      output += text.slice(index, end)
      index = end
      continue
    }
    // A comma whose next non-blank character closes an object or array is dropped.
    if (char !== ',' || !/^\s*[}\]]/.test(text.slice(index + 1))) output += char
    index++
  }
  return output
}

function endOfString(text: string, start: number): number {
  let index = start + 1
  while (index < text.length) {
    if (text[index] === '\\') index += 2
    else if (text[index] === '"') return index + 1
    else index++
  }
  return index
}
