import { chmod, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadSkills } from '../../src/skills/load-skills.js'
import type { SkillsSource } from '../../src/skills/skills-source.js'
import { makeSkillTree, type SkillTree } from './skill-tree.js'

let tree: SkillTree
let warnings: string[]

beforeEach(async () => {
  tree = await makeSkillTree()
  warnings = []
})

afterEach(async () => {
  await tree.remove()
})

function load(...roots: string[]): Promise<SkillsSource> {
  return loadSkills(roots.length > 0 ? roots : [tree.root], {
    logger: { warn: (message) => warnings.push(message) },
  })
}

async function call(source: SkillsSource, name: string): Promise<string> {
  const tool = source.tools[0]
  if (tool === undefined) throw new Error('no skill tool')
  const result = await tool.execute({ name })
  return result.output
}

describe('frontmatter', () => {
  it('reads folded and literal descriptions and trims every value', async () => {
    await tree.skill('folded', 'name: folded\ndescription: >\n  Use this when\n  the text is folded.\n')
    await tree.skill('literal', 'name: literal\ndescription: |\n  First line.\n  Second line.\n')
    await tree.skill('quoted', 'name: "  quoted  "\ndescription: "  spaced out  "')
    await tree.skill('plain', 'name:    plain   \ndescription:   Plain text.   ')
    const source = await load()
    expect(source.prompt).toBe(`Skills provide specialized instructions and workflows for specific tasks.
Use the skill tool to load a skill when a task matches its description.

## Available Skills
- **folded**: Use this when the text is folded.
- **literal**: First line.
Second line.
- **plain**: Plain text.
- **quoted**: spaced out`)
    expect(await call(source, 'quoted')).toMatch(
      /^<skill_content name="quoted">\n# Skill: quoted\n\nBody of quoted\.\n/,
    )
    expect(warnings).toStrictEqual([])
  })

  it('loads a skill without a description but leaves it out of the prompt', async () => {
    await tree.skill('quiet', 'name: quiet')
    await tree.skill('empty', 'name: empty\ndescription: "   "')
    const source = await load()
    expect(source.prompt).toBe('')
    expect(await call(source, 'quiet')).toContain('# Skill: quiet\n\nBody of quiet.\n\nBase directory')
    expect(source.tools[0]?.description).toContain('Available skills: empty, quiet')
  })

  it('reads a file saved with a BOM and Windows line endings', async () => {
    await tree.write(
      'windows/SKILL.md',
      '\uFEFF---\r\nname: windows\r\ndescription: CRLF\r\n---\r\n\r\nLine one.\r\nLine two.\r\n',
    )
    const source = await load()
    expect(source.prompt).toContain('- **windows**: CRLF')
    expect(await call(source, 'windows')).toContain(
      '# Skill: windows\n\nLine one.\nLine two.\n\nBase directory',
    )
  })

  it.each([
    ['no name', 'description: nameless', 'the frontmatter has no "name"'],
    ['an empty name', 'name: "  "', '"name" is empty'],
    ['a name that is a list', 'name: [a, b]', '"name" must be text, not a list or a mapping'],
    [
      'a name on two lines',
      'name: |\n  two\n  lines',
      '"name" must be a single line without control characters',
    ],
    ['an empty frontmatter', '', 'the frontmatter has no "name"'],
    [
      'a frontmatter that is a list',
      '- name: listed',
      'the frontmatter must be a YAML mapping of "key: value" lines',
    ],
  ])('skips a skill with %s, naming the file and the reason', async (_case, frontmatter, reason) => {
    const file = await tree.skill('broken', frontmatter)
    await tree.skill('good', 'name: good\ndescription: Fine.')
    const source = await load()
    expect(warnings).toStrictEqual([`Skipped skill ${file}: ${reason}.`])
    expect(source.tools[0]?.description).toMatch(/Available skills: good$/)
  })

  it('skips a skill whose frontmatter is not valid YAML, quoting the parser', async () => {
    const file = await tree.skill('bad-yaml', 'name: bad\ndescription: Use when: you need it')
    const source = await load()
    expect(source.tools).toStrictEqual([])
    expect(warnings).toStrictEqual([
      `Skipped skill ${file}: the frontmatter is not valid YAML (Nested mappings are not allowed in compact mappings at line 3, column 14 of SKILL.md).`,
    ])
  })

  it('skips a skill whose frontmatter repeats a key', async () => {
    const file = await tree.skill('twice', 'name: one\nname: two')
    expect((await load()).tools).toStrictEqual([])
    expect(warnings).toStrictEqual([
      `Skipped skill ${file}: the frontmatter is not valid YAML (Map keys must be unique at line 3, column 1 of SKILL.md).`,
    ])
  })

  it('skips a file without frontmatter, or with one never closed', async () => {
    const bare = await tree.write('bare/SKILL.md', '# Just markdown\n')
    const open = await tree.write('open/SKILL.md', '---\nname: open\n# no closing line\n')
    await load()
    expect(warnings).toStrictEqual([
      `Skipped skill ${bare}: no frontmatter: the file must start with a "---" line, then "name: …", then a closing "---" line.`,
      `Skipped skill ${open}: the frontmatter is not closed by a "---" line.`,
    ])
  })

  it('keeps a skill whose description is not text, unlisted, and says so', async () => {
    const file = await tree.skill('odd', 'name: odd\ndescription:\n  nested: map')
    const source = await load()
    expect(source.prompt).toBe('')
    expect(await call(source, 'odd')).toContain('<skill_content name="odd">')
    expect(warnings).toStrictEqual([
      `Skill ${file}: "description" must be text, so it was ignored and the skill is not listed in the prompt.`,
    ])
  })
})

describe('discovery', () => {
  it('finds SKILL.md at any depth, a folder before its subfolders, names in code-unit order', async () => {
    // Written out of order: the result must not depend on creation or listing order.
    await tree.skill('z/deep/er/one', 'name: dup\ndescription: from z')
    await tree.skill('B', 'name: dup\ndescription: from B')
    await tree.skill('a', 'name: dup\ndescription: from a')
    await tree.skill('a/inner', 'name: inner\ndescription: nested in a')
    const source = await load()
    expect(source.prompt).toContain('- **dup**: from B\n- **inner**: nested in a')
    expect(warnings).toStrictEqual([
      `Duplicate skill name "dup": kept ${tree.root}/B/SKILL.md, skipped ${tree.root}/a/SKILL.md.`,
      `Duplicate skill name "dup": kept ${tree.root}/B/SKILL.md, skipped ${tree.root}/z/deep/er/one/SKILL.md.`,
    ])
    expect(await call(source, 'dup')).toContain('Body of B.')
  })

  it('takes roots in the order given: the first root wins a duplicate', async () => {
    await tree.skill('one/same', 'name: same\ndescription: first root')
    await tree.skill('two/same', 'name: same\ndescription: second root')
    await tree.skill('two/other', 'name: other\ndescription: only in two')
    const source = await load(path.join(tree.root, 'two'), path.join(tree.root, 'one'))
    expect(source.prompt).toContain('- **other**: only in two\n- **same**: second root')
    expect(warnings).toStrictEqual([
      `Duplicate skill name "same": kept ${tree.root}/two/same/SKILL.md, skipped ${tree.root}/one/same/SKILL.md.`,
    ])
  })

  it('reads a root nested in another root once, with no duplicate warnings', async () => {
    await tree.skill('outer', 'name: outer\ndescription: o')
    await tree.skill('outer/sub/inner', 'name: inner\ndescription: i')
    for (const roots of [
      [tree.root, path.join(tree.root, 'outer/sub')],
      [path.join(tree.root, 'outer/sub'), tree.root],
      [tree.root, tree.root],
    ]) {
      warnings = []
      const source = await load(...roots)
      expect(source.prompt).toContain('- **inner**: i\n- **outer**: o')
      expect(warnings).toStrictEqual([])
    }
  })

  it('accepts a skill folder itself as a root', async () => {
    await tree.skill('solo', 'name: solo\ndescription: s')
    await tree.write('solo/notes.md', 'n')
    const source = await load(path.join(tree.root, 'solo'))
    expect(await call(source, 'solo')).toContain(`<file>${tree.root}/solo/notes.md</file>`)
  })

  it('follows a symlinked skill folder and keeps the linked path as the base directory', async () => {
    const outside = await makeSkillTree()
    try {
      await outside.skill('real-skill', 'name: linked\ndescription: Lives elsewhere.')
      await outside.write('real-skill/scripts/run.sh', 'echo hi')
      await tree.link('skills/linked-skill', path.join(outside.root, 'real-skill'))
      const source = await load(path.join(tree.root, 'skills'))
      const output = await call(source, 'linked')
      const base = path.join(tree.root, 'skills/linked-skill')
      expect(output).toContain(`Base directory for this skill: ${pathToFileURL(base).href}\n`)
      expect(output).toContain(`<skill_files>\n<file>${base}/scripts/run.sh</file>\n</skill_files>`)
    } finally {
      await outside.remove()
    }
  })

  it('follows a symlinked SKILL.md and a symlinked root', async () => {
    await tree.write('store/shared.md', '---\nname: via-file-link\ndescription: d\n---\nShared body.')
    await tree.link('skills/by-file/SKILL.md', 'store/shared.md')
    await tree.link('root-link', 'skills')
    const source = await load(path.join(tree.root, 'root-link'))
    expect(await call(source, 'via-file-link')).toContain(
      `Shared body.\n\nBase directory for this skill: ${pathToFileURL(path.join(tree.root, 'root-link/by-file')).href}`,
    )
  })

  it('ends a symlink cycle and finds each skill once', async () => {
    await tree.skill('skills/a', 'name: a\ndescription: a')
    await tree.link('skills/a/loop', '.')
    await tree.link('skills/a/up', 'skills')
    await tree.link('skills/self', 'skills')
    const source = await load(path.join(tree.root, 'skills'))
    expect(source.prompt).toContain('## Available Skills\n- **a**: a')
    expect(warnings).toStrictEqual([])
    // The cycle is not part of the skill's files either.
    // No other files: an empty line between the tags, as the other ports emit it.
    expect(await call(source, 'a')).toContain('<skill_files>\n\n</skill_files>\n</skill_content>')
  })

  it('ignores broken symlinks', async () => {
    await tree.skill('ok', 'name: ok\ndescription: ok')
    await tree.link('dangling', 'nowhere')
    await tree.link('ok/SKILL-link', 'nowhere/SKILL.md')
    const source = await load()
    expect(source.prompt).toContain('- **ok**: ok')
    expect(warnings).toStrictEqual([])
  })

  it('never searches node_modules or .git', async () => {
    await tree.skill('node_modules/pkg', 'name: from-dependency\ndescription: no')
    await tree.skill('.git/hooks', 'name: from-git\ndescription: no')
    await tree.skill('.hidden', 'name: hidden-folder\ndescription: yes')
    const source = await load()
    expect(source.prompt).toContain('## Available Skills\n- **hidden-folder**: yes')
    expect(source.prompt).not.toContain('from-')
  })

  it('skips a missing root and a root that is a file, and still loads the rest', async () => {
    await tree.skill('skills/ok', 'name: ok\ndescription: fine')
    const file = await tree.write('not-a-folder', 'x')
    const source = await load(path.join(tree.root, 'missing'), file, path.join(tree.root, 'skills'))
    expect(source.prompt).toContain('- **ok**: fine')
    expect(warnings).toStrictEqual([
      `Skills folder ${tree.root}/missing was skipped: it does not exist.`,
      `Skills folder ${file} was skipped: it is a file, not a folder.`,
    ])
  })

  it('resolves a relative root against the working directory', async () => {
    await tree.skill('rel', 'name: rel\ndescription: relative')
    const source = await load(path.relative(process.cwd(), tree.root))
    expect(await call(source, 'rel')).toContain(
      `Base directory for this skill: ${pathToFileURL(`${tree.root}/rel`).href}`,
    )
  })

  it.skipIf(process.getuid?.() === 0)('reports an unreadable folder and keeps going', async () => {
    await tree.skill('locked/inside', 'name: locked\ndescription: no')
    await tree.skill('open', 'name: open\ndescription: yes')
    await chmod(path.join(tree.root, 'locked'), 0o000)
    try {
      const source = await load()
      expect(source.prompt).toContain('- **open**: yes')
      expect(warnings).toStrictEqual([
        `Skipped skills folder ${tree.root}/locked: it cannot be read (EACCES).`,
      ])
    } finally {
      await chmod(path.join(tree.root, 'locked'), 0o755)
    }
  })
})

describe('the skill tool', () => {
  it('lists up to 10 other files, breadth-first in name order, without hidden files, SKILL.md or nested skills', async () => {
    await tree.skill('big', 'name: big\ndescription: many files')
    for (const name of ['b.md', 'a.md', '.env', 'Z.txt']) await tree.write(`big/${name}`, name)
    for (let index = 0; index < 6; index++) await tree.write(`big/scripts/s${index}.sh`, 'x')
    await tree.write('big/reference/api.md', 'x')
    await tree.write('big/reference/deep/more.md', 'x')
    await tree.write('big/node_modules/dep/index.js', 'x')
    await tree.write('big/.cache/c', 'x')
    await tree.skill('big/sub-skill', 'name: sub\ndescription: nested skill')
    await tree.write('big/sub-skill/own.md', 'x')
    const source = await load()
    const big = `${tree.root}/big`
    expect(await call(source, 'big')).toContain(`<skill_files>
<file>${big}/Z.txt</file>
<file>${big}/a.md</file>
<file>${big}/b.md</file>
<file>${big}/reference/api.md</file>
<file>${big}/scripts/s0.sh</file>
<file>${big}/scripts/s1.sh</file>
<file>${big}/scripts/s2.sh</file>
<file>${big}/scripts/s3.sh</file>
<file>${big}/scripts/s4.sh</file>
<file>${big}/scripts/s5.sh</file>
</skill_files>
</skill_content>`)
    expect(await call(source, 'sub')).toContain(
      `<skill_files>\n<file>${big}/sub-skill/own.md</file>\n</skill_files>`,
    )
  })

  it('answers from what was read at load: a later edit is not seen until the toolkit is rebuilt', async () => {
    const file = await tree.skill('frozen', 'name: frozen\ndescription: f', 'Original body.')
    const source = await load()
    await writeFile(file, '---\nname: frozen\n---\nEdited body.\n')
    expect(await call(source, 'frozen')).toContain('Original body.')
  })

  it('trims spaces a model puts around the name', async () => {
    await tree.skill('padded', 'name: padded\ndescription: p')
    const result = await (await load()).tools[0]?.execute({ name: '  padded ' })
    expect(result?.isError).toBe(false)
  })

  it('never throws on input that breaks its schema, called directly', async () => {
    await tree.skill('one', 'name: one\ndescription: 1')
    await tree.skill('two', 'name: two\ndescription: 2')
    const tool = (await load()).tools[0]
    expect(await tool?.execute({ name: 7 })).toStrictEqual({
      output: 'The skill tool needs { "name": string }. Available skills: one, two',
      isError: true,
    })
    expect(await tool?.execute(null as unknown as Record<string, unknown>)).toStrictEqual({
      output: 'The skill tool needs { "name": string }. Available skills: one, two',
      isError: true,
    })
  })

  it('cuts a very long unknown name in its error', async () => {
    await tree.skill('one', 'name: one\ndescription: 1')
    const output = await call(await load(), 'n'.repeat(5_000))
    expect(output).toBe(`Skill "${'n'.repeat(100)}…" not found. Available skills: one`)
  })
})
