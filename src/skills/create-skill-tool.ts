import { pathToFileURL } from 'node:url'
import { errorResult } from '../tool/tool-result.js'
import type { Tool, ToolResult } from '../tool/types.js'

/** One loaded skill: everything its block needs, read when the skills were loaded. */
export interface Skill {
  name: string
  /** Empty when the frontmatter has none; such a skill can be loaded but is not listed in the prompt. */
  description: string
  /** The Markdown after the frontmatter, trimmed. */
  body: string
  /** The absolute path of the skill's folder, as reached from its root. */
  directory: string
  /** The absolute path of its `SKILL.md`. */
  file: string
  /** A sample of the other files in its folder, as absolute paths (see `listSkillFiles`). */
  files: string[]
}

/** The exposed name of the one tool that loads skills: one tool for all skills, whatever their number. */
const SKILL_TOOL_NAME = 'skill'

// A model can send a name of any length; the error echoes only this much of it.
const MAX_ECHOED_NAME = 100

/**
 * The text the `skill` tool returns for a skill, in the byte-exact form other skill loaders emit (the
 * `<skill_content>` block with the base directory and the sampled `<skill_files>` list), so a model
 * trained on that form reads it unchanged.
 *
 * @example
 * formatSkillContent(skill)
 * // '<skill_content name="hello-world">\n# Skill: hello-world\n\n…\n</skill_content>'
 */
function formatSkillContent(skill: Skill): string {
  return [
    // Escaped as an attribute value: a name holding `">` cannot close the tag and write its own.
    `<skill_content name="${escapeAttribute(skill.name)}">`,
    `# Skill: ${escapeAttribute(skill.name)}`,
    '',
    skill.body,
    '',
    `Base directory for this skill: ${pathToFileURL(skill.directory).href}`,
    'Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.',
    'Note: file list is sampled.',
    '',
    '<skill_files>',
    // One line for the list, so a skill with no other files has an empty line here: the form the other
    // toolnexus ports (JS, Go, Python) emit, byte for byte.
    skill.files.map((file) => `<file>${file}</file>`).join('\n'),
    '</skill_files>',
    '</skill_content>',
  ].join('\n')
}

/**
 * The system-prompt block listing the skills that have a description, sorted by name, in the byte-exact
 * form other skill loaders emit; an empty string when no skill has a description.
 *
 * @example
 * formatSkillsPrompt([{ name: 'greet', description: 'Say hello', … }])
 * // 'Skills provide …\n\n## Available Skills\n- **greet**: Say hello'
 */
export function formatSkillsPrompt(skills: readonly Skill[]): string {
  const described = sortByName(skills.filter((skill) => skill.description !== ''))
  if (described.length === 0) return ''
  return [
    'Skills provide specialized instructions and workflows for specific tasks.',
    'Use the skill tool to load a skill when a task matches its description.',
    '',
    '## Available Skills',
    ...described.map((skill) => `- **${listedName(skill.name)}**: ${skill.description}`),
  ].join('\n')
}

/**
 * The `skill` tool (`source: 'skill'`): `{ name }` in, the skill's block out. The name is only ever looked
 * up among the loaded skills, never turned into a path, so `../x` or `/etc/passwd` is just an unknown name.
 *
 * @example
 * const tool = createSkillTool(skills)
 * await tool.execute({ name: 'hello-world' }) // { output: '<skill_content name="hello-world">…', isError: false }
 */
export function createSkillTool(skills: readonly Skill[]): Tool {
  // A Map, not an object, so names like `__proto__` or `constructor` never reach the prototype.
  const byName = new Map(skills.map((skill) => [skill.name, skill]))
  const available = sortByName(skills)
    .map((skill) => listedName(skill.name))
    .join(', ')
  return {
    name: SKILL_TOOL_NAME,
    description: `Loads a skill: its instructions and a sample of the files in its folder. Call it when a task matches a skill's description. Available skills: ${available}`,
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string', description: 'The name of the skill to load.' } },
      required: ['name'],
    },
    source: 'skill',
    async execute(args: Record<string, unknown>): Promise<ToolResult> {
      const requested = args?.name
      if (typeof requested !== 'string') {
        return errorResult(`The skill tool needs { "name": string }. Available skills: ${available}`)
      }
      // Models sometimes pad the name with spaces; a name never starts or ends with one (it is trimmed).
      const skill = byName.get(requested.trim())
      if (skill === undefined) {
        const echoed =
          requested.length > MAX_ECHOED_NAME ? `${requested.slice(0, MAX_ECHOED_NAME)}…` : requested
        return errorResult(`Skill "${echoed}" not found. Available skills: ${available}`)
      }
      return {
        output: formatSkillContent(skill),
        isError: false,
        metadata: { skill: skill.name, directory: skill.directory },
      }
    },
  }
}

function sortByName(skills: readonly Skill[]): Skill[] {
  return [...skills].sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
}

// A name of these characters reads the same in any list; the rest are quoted.
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]*$/

/**
 * A skill's name as a list shows it: a plain name (`hello-world`) as it is, any other quoted as a JSON
 * string with `<`, `>` and `&` escaped, so a name cannot end the list item, add a skill of its own
 * (`a, b`), bold its own text (`**`) or write a tag.
 */
function listedName(name: string): string {
  if (PLAIN_NAME.test(name)) return name
  return JSON.stringify(name)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('*', '\\u002a')
}

function escapeAttribute(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
}
