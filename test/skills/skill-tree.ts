import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'

/** A temporary folder to build skill trees in; `remove()` deletes it. */
export interface SkillTree {
  root: string
  /** Writes `text` at `relativePath` under the root, creating folders. Returns the absolute path. */
  write(relativePath: string, text: string): Promise<string>
  /** Writes a SKILL.md with this frontmatter (YAML lines) and body in folder `relativeFolder`. */
  skill(relativeFolder: string, frontmatter: string, body?: string): Promise<string>
  /** A symlink at `relativePath` pointing to `target` (absolute, or relative to the root). */
  link(relativePath: string, target: string): Promise<string>
  remove(): Promise<void>
}

export async function makeSkillTree(): Promise<SkillTree> {
  // The real path, so expected paths match what the loader reports on systems where tmp is a symlink.
  const root = await realpath(await mkdtemp(path.join(tmpdir(), 'toolnexus-skills-')))
  const tree: SkillTree = {
    root,
    async write(relativePath, text) {
      const file = path.join(root, relativePath)
      await mkdir(path.dirname(file), { recursive: true })
      await writeFile(file, text)
      return file
    },
    skill(relativeFolder, frontmatter, body = `Body of ${relativeFolder}.`) {
      return tree.write(path.join(relativeFolder, 'SKILL.md'), `---\n${frontmatter}\n---\n\n${body}\n`)
    },
    async link(relativePath, target) {
      const at = path.join(root, relativePath)
      await mkdir(path.dirname(at), { recursive: true })
      await symlink(path.isAbsolute(target) ? target : path.join(root, target), at)
      return at
    },
    remove: () => rm(root, { recursive: true, force: true }),
  }
  return tree
}
