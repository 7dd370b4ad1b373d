import type { Dirent } from 'node:fs'
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { byName, isInside, kindOf, realPathOf, SKILL_FILE_NAME, SKIPPED_FOLDERS } from './find-skill-files.js'

/** How many files a skill's block lists. */
const MAX_LISTED_FILES = 10

/**
 * A sample of the files in a skill's folder, as absolute paths: its own `SKILL.md` left out, and so are
 * hidden entries (`.env`, `.DS_Store`), `node_modules`, and any subfolder that is a skill of its own.
 * "Sampled" means the first `limit` files breadth-first, each folder's entries in code-unit order of
 * their names: the files beside `SKILL.md` come before those in subfolders, since they are the ones a
 * skill's instructions usually point at. Symlinks are followed; each real folder is read once.
 *
 * @example
 * await listSkillFiles('/app/skills/hello-world', { skillDirectories: new Set(), limit: 10 })
 * // ['/app/skills/hello-world/scripts/greet.sh']
 */
export async function listSkillFiles(
  directory: string,
  options: { skillDirectories: ReadonlySet<string>; limit?: number },
): Promise<string[]> {
  const limit = options.limit ?? MAX_LISTED_FILES
  const files: string[] = []
  const root = await realPathOf(directory)
  if (root === undefined) return files
  const visited = new Set<string>([root])
  const queue: string[] = [directory]

  for (let next = queue.shift(); next !== undefined && files.length < limit; next = queue.shift()) {
    let entries: Dirent[]
    try {
      entries = await readdir(next, { withFileTypes: true })
    } catch {
      // An unreadable subfolder only makes the sample smaller; the skill itself still loads.
      continue
    }
    for (const entry of entries.sort(byName)) {
      if (entry.name.startsWith('.')) continue
      const entryPath = path.join(next, entry.name)
      const kind = await kindOf(entry, entryPath)
      if (kind === 'file') {
        if (next === directory && entry.name === SKILL_FILE_NAME) continue
        files.push(entryPath)
        if (files.length === limit) break
      } else if (kind === 'folder' && !SKIPPED_FOLDERS.has(entry.name)) {
        const real = await realPathOf(entryPath)
        // A link leaving the skill's folder is not followed.
        if (
          real === undefined ||
          !isInside(real, root) ||
          visited.has(real) ||
          options.skillDirectories.has(real)
        )
          continue
        visited.add(real)
        queue.push(entryPath)
      }
    }
  }
  return files
}
