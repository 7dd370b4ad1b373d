import { parse, YAMLError } from 'yaml'
import { errorMessage } from '../tool/tool-result.js'

/** What a `SKILL.md` holds, or why it cannot be used. */
export type ParsedSkillFile =
  | {
      kind: 'skill'
      name: string
      /** Trimmed; empty when the frontmatter has none (such a skill is loadable but not listed in the prompt). */
      description: string
      /** Everything after the closing `---`, trimmed. */
      body: string
      /** Something the author should fix that did not stop the skill from loading. */
      warning?: string
    }
  | { kind: 'skipped'; reason: string }

// Line breaks and other control characters would break the one-line list in the prompt and the
// `name="…"` attribute of the skill block.
function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

/**
 * Splits a `SKILL.md` into its YAML frontmatter (parsed with `yaml`) and its body. The text must start
 * with a `---` line and close the frontmatter with another `---` line; `name` is required.
 *
 * @example
 * parseSkillFile('---\nname: greet\ndescription: Say hello\n---\n# Greet\n')
 * // { kind: 'skill', name: 'greet', description: 'Say hello', body: '# Greet' }
 */
export function parseSkillFile(text: string): ParsedSkillFile {
  // Files written on Windows or saved with a BOM read the same as any other.
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
  if (lines[0]?.trimEnd() !== '---') {
    return {
      kind: 'skipped',
      reason:
        'no frontmatter: the file must start with a "---" line, then "name: …", then a closing "---" line',
    }
  }
  const end = lines.findIndex((line, index) => index > 0 && line.trimEnd() === '---')
  if (end < 0) return { kind: 'skipped', reason: 'the frontmatter is not closed by a "---" line' }

  let data: unknown
  try {
    // `logLevel: 'error'` still throws on errors, but keeps YAML warnings (an unknown directive, a wrong
    // tag) off the host's stderr: a skipped or odd skill is reported once, through the logger.
    data = parse(lines.slice(1, end).join('\n'), { logLevel: 'error' })
  } catch (error) {
    return { kind: 'skipped', reason: `the frontmatter is not valid YAML (${describeYamlError(error)})` }
  }
  if (data === null || data === undefined) return { kind: 'skipped', reason: 'the frontmatter has no "name"' }
  if (typeof data !== 'object' || Array.isArray(data)) {
    return { kind: 'skipped', reason: 'the frontmatter must be a YAML mapping of "key: value" lines' }
  }
  const fields = data as Record<string, unknown>

  const name = scalarText(fields.name)
  if (name === undefined) {
    return fields.name === undefined || fields.name === null
      ? { kind: 'skipped', reason: 'the frontmatter has no "name"' }
      : { kind: 'skipped', reason: '"name" must be text, not a list or a mapping' }
  }
  if (name === '') return { kind: 'skipped', reason: '"name" is empty' }
  if (hasControlCharacter(name)) {
    return { kind: 'skipped', reason: '"name" must be a single line without control characters' }
  }

  const body = lines
    .slice(end + 1)
    .join('\n')
    .trim()
  const description = scalarText(fields.description)
  if (description === undefined && fields.description !== undefined && fields.description !== null) {
    return {
      kind: 'skill',
      name,
      description: '',
      body,
      warning: '"description" must be text, so it was ignored and the skill is not listed in the prompt',
    }
  }
  return { kind: 'skill', name, description: description ?? '', body }
}

// YAML reads `name: 2024` as a number and `name: yes` as text; either way the author meant the text.
function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim()
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return undefined
}

// The parser counts lines from the start of the frontmatter; the author reads them from the top of the file.
function describeYamlError(error: unknown): string {
  if (!(error instanceof YAMLError)) return errorMessage(error)
  const summary = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')
  const position = error.linePos?.[0]
  return position === undefined
    ? summary
    : `${summary} at line ${position.line + 1}, column ${position.col} of SKILL.md`
}
