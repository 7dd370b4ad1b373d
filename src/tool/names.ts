/** Every provider accepts names made of these characters, 1 to 64 of them. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/

const MAX_NAME_LENGTH = 64
const HASH_LENGTH = 8

/**
 * Turns any string into a name every provider accepts: characters outside `[a-zA-Z0-9_-]` become `_`,
 * and a name longer than 64 is cut and given a stable hash of the whole original, so two long names that
 * share a prefix never collide.
 *
 * @example
 * sanitizeToolName('files/read file') // 'files_read_file'
 * sanitizeToolName('x'.repeat(80))    // 'xxx…x_1a2b3c4d' (64 chars)
 */
export function sanitizeToolName(name: string): string {
  const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, '_') || '_'
  if (cleaned.length <= MAX_NAME_LENGTH) return cleaned
  return `${cleaned.slice(0, MAX_NAME_LENGTH - HASH_LENGTH - 1)}_${stableHash(name)}`
}

/**
 * The exposed name of `part`s joined with `_`, each part sanitized: how MCP tools are named
 * (`<server>_<tool>`).
 *
 * @example
 * joinToolName(['github', 'create issue']) // 'github_create_issue'
 */
export function joinToolName(parts: readonly string[]): string {
  return sanitizeToolName(parts.map((part) => part.replace(/[^a-zA-Z0-9_-]/g, '_')).join('_'))
}

/**
 * The name a tool is declared under for Gemini, which wants a name that starts with a letter or an
 * underscore: the name itself, or `_` before it (`1password_get_item` → `_1password_get_item`). The toolkit
 * knows a tool by either name, so the model's call under the Gemini name runs the tool.
 *
 * @example
 * geminiToolName('get_weather')        // 'get_weather'
 * geminiToolName('1password_get_item') // '_1password_get_item'
 */
export function geminiToolName(name: string): string {
  return /^[a-zA-Z_]/.test(name) ? name : sanitizeToolName(`_${name}`)
}

/** FNV-1a, 32 bits, as 8 hex digits: stable across runs and runtimes, and needs no `node:crypto`. */
function stableHash(text: string): string {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(16).padStart(HASH_LENGTH, '0')
}
