import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createToolkit, type ToolkitOptions } from '../../src/toolkit/create-toolkit.js'

const root = mkdtempSync(join(tmpdir(), 'toolnexus-skills-filter-'))
for (const name of ['alpha', 'beta', 'gamma']) {
  mkdirSync(join(root, name))
  writeFileSync(
    join(root, name, 'SKILL.md'),
    `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n# ${name}\n`,
  )
}
afterAll(() => rmSync(root, { recursive: true, force: true }))

async function loaded(options: Pick<ToolkitOptions, 'skillsFilter' | 'disableSkills'>) {
  const warnings: string[] = []
  await using toolkit = await createToolkit({
    skillsDir: root,
    ...options,
    logger: { warn: (message) => warnings.push(message) },
  })
  const skills = ['alpha', 'beta', 'gamma'].filter((name) => toolkit.skillsPrompt().includes(`**${name}**`))
  const unknown = await toolkit.execute('skill', { name: 'beta' })
  return { skills, betaLoads: !unknown.isError, warnings }
}

describe('choosing skills by name', () => {
  it.each([
    { options: {}, skills: ['alpha', 'beta', 'gamma'] },
    { options: { disableSkills: ['beta'] }, skills: ['alpha', 'gamma'] },
    { options: { skillsFilter: { beta: false } }, skills: ['alpha', 'gamma'] },
    { options: { skillsFilter: { alpha: true, gamma: true } }, skills: ['alpha', 'gamma'] },
    { options: { skillsFilter: { alpha: true, beta: false } }, skills: ['alpha'] },
    // An explicit filter entry wins over disableSkills.
    { options: { disableSkills: ['beta'], skillsFilter: { beta: true } }, skills: ['beta'] },
  ])('$options keeps $skills', async ({ options, skills }) => {
    const result = await loaded(options)
    expect(result.skills).toStrictEqual(skills)
    expect(result.betaLoads).toBe(skills.includes('beta'))
    expect(result.warnings).toStrictEqual([])
  })

  it('warns about a name no skill has, with the closest one', async () => {
    const result = await loaded({ disableSkills: ['betta'] })
    expect(result.skills).toStrictEqual(['alpha', 'beta', 'gamma'])
    expect(result.warnings).toStrictEqual([
      'The skills filter names "betta", which no skill has. Did you mean "beta"?',
    ])
  })
})
