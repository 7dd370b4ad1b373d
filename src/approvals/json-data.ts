// Plain JSON data: what a run state is made of, so that it survives `JSON.stringify` / `JSON.parse`, any
// store, and another process, and hashes the same everywhere. Web APIs only (edge runtimes).

/**
 * A deep copy of `value` as plain JSON data: bytes (`Uint8Array`, `ArrayBuffer`, Node `Buffer`) become
 * base64 text (which the AI SDK and Gemini read as file data), a `URL` its text, a `Date` its ISO text, a
 * `bigint` its digits; `undefined` and functions are left out, as `JSON.stringify` does.
 *
 * @example
 * toJsonData({ data: new Uint8Array([104, 105]) }) // { data: 'aGk=' }
 */
export function toJsonData(value: unknown): unknown {
  const text = JSON.stringify(value, function replace(this: unknown, key: string, current: unknown) {
    // `this[key]` is the value before its own `toJSON` ran (Buffer's turns bytes into an array of numbers).
    const original = (this as Record<string, unknown>)[key]
    if (original instanceof Uint8Array) return toBase64(original)
    if (original instanceof ArrayBuffer) return toBase64(new Uint8Array(original))
    if (typeof current === 'bigint') return current.toString()
    return current
  })
  return text === undefined ? null : JSON.parse(text)
}

/**
 * JSON text with every object's keys in sorted order: the same data gives the same text in any runtime,
 * whatever order its keys were written in. For plain JSON data (see `toJsonData`).
 *
 * @example
 * canonicalJson({ b: 1, a: [true, null] }) // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort()
    const entries: string[] = []
    for (const key of keys) {
      const item = (value as Record<string, unknown>)[key]
      if (item === undefined) continue
      entries.push(`${JSON.stringify(key)}:${canonicalJson(item)}`)
    }
    return `{${entries.join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

function toBase64(bytes: Uint8Array): string {
  let binary = ''
  // In slices: `String.fromCharCode` takes its bytes as arguments, and engines cap how many.
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000))
  }
  return btoa(binary)
}
