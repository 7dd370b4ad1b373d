import type { Dirent } from 'node:fs'
import { readdir, realpath, stat } from 'node:fs/promises'
import path from 'node:path'
import type { Logger } from '../shared/logger.js'
import { errorMessage } from '../tool/tool-result.js'

/** The file every skill folder holds. */
export const SKILL_FILE_NAME = 'SKILL.md'

/** Folders never searched: they hold dependencies and history, not skills, and can be huge. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['node_modules', '.git'])

/** Where one `SKILL.md` was found, as reached from its root (through symlinks, not resolved). */
export interface SkillLocation {
  /** The absolute path of the `SKILL.md`. */
  file: string
  /** The absolute path of the folder holding it: the skill's base directory. */
  directory: string
}

/** Every `SKILL.md` under the roots, in a stable order. */
export interface FoundSkillFiles {
  locations: SkillLocation[]
  /** The real paths of every folder holding a `SKILL.md`, so a skill's file list can leave out nested skills. */
  skillDirectories: ReadonlySet<string>
}

/**
 * Finds every `**\/SKILL.md` under each root. Symlinked folders are followed, and each real folder is
 * searched once, which ends symlink cycles and makes a root nested in another harmless. Entries are
 * visited in code-unit order of their names, a folder's own `SKILL.md` before its subfolders, roots in
 * the order given, so the result never depends on the file system's listing order. A root that is
 * missing or not a folder is reported to the logger and skipped.
 *
 * @example
 * const { locations } = await findSkillFiles(['./skills'], { logger: console })
 * locations[0] // { file: '/app/skills/hello-world/SKILL.md', directory: '/app/skills/hello-world' }
 */
export async function findSkillFiles(
  roots: readonly string[],
  options: { logger: Logger },
): Promise<FoundSkillFiles> {
  const { logger } = options
  const visited = new Set<string>()
  const locations: SkillLocation[] = []
  const skillDirectories = new Set<string>()

  // `root` is the real path of the root being searched; `outside` is true in a folder a link led to from
  // inside it, which is looked at for its own SKILL.md but not searched further.
  async function walk(directory: string, real: string, root: string, outside: boolean): Promise<void> {
    if (visited.has(real)) return
    visited.add(real)
    let entries: Dirent[]
    try {
      entries = await readdir(directory, { withFileTypes: true })
    } catch (error) {
      logger.warn(`Skipped skills folder ${directory}: it cannot be read (${errorCode(error)}).`)
      return
    }
    const subfolders: string[] = []
    for (const entry of entries.sort(byName)) {
      const entryPath = path.join(directory, entry.name)
      const kind = await kindOf(entry, entryPath)
      if (entry.name === SKILL_FILE_NAME && kind === 'file') {
        locations.push({ file: entryPath, directory })
        skillDirectories.add(real)
      } else if (kind === 'folder' && !SKIPPED_FOLDERS.has(entry.name) && !outside) {
        subfolders.push(entryPath)
      }
    }
    for (const subfolder of subfolders) {
      const subfolderReal = await realPathOf(subfolder)
      if (subfolderReal === undefined || isSystemFolder(subfolderReal)) continue
      // A link that leaves the root may bring in one skill (a skill folder linked in), but the tree it
      // points into (a home folder, the whole disk) is not searched.
      await walk(subfolder, subfolderReal, root, !isInside(subfolderReal, root))
    }
  }

  for (const root of roots) {
    const directory = path.resolve(root)
    let isFolder: boolean
    try {
      isFolder = (await stat(directory)).isDirectory()
    } catch (error) {
      const problem =
        errorCode(error) === 'ENOENT' ? 'it does not exist' : `it cannot be read (${errorCode(error)})`
      logger.warn(`Skills folder ${directory} was skipped: ${problem}.`)
      continue
    }
    if (!isFolder) {
      logger.warn(`Skills folder ${directory} was skipped: it is a file, not a folder.`)
      continue
    }
    const real = await realPathOf(directory)
    if (real !== undefined) await walk(directory, real, real, false)
  }
  return { locations, skillDirectories }
}

/** What an entry is once symlinks are followed; a broken link is `other`. */
export async function kindOf(entry: Dirent, entryPath: string): Promise<'file' | 'folder' | 'other'> {
  if (entry.isFile()) return 'file'
  if (entry.isDirectory()) return 'folder'
  if (!entry.isSymbolicLink()) return 'other'
  try {
    const target = await stat(entryPath)
    if (target.isFile()) return 'file'
    return target.isDirectory() ? 'folder' : 'other'
  } catch {
    return 'other'
  }
}

/** The real path, or `undefined` when it cannot be resolved (a link broken since it was listed). */
/**
 * True when `real` (a real path) is `root` or inside it.
 *
 * @example
 * isInside('/skills/a/b', '/skills') // true
 * isInside('/proc/self', '/skills')  // false
 */
export function isInside(real: string | undefined, root: string): boolean {
  if (real === undefined) return false
  if (real === root) return true
  return real.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`)
}

// Kernel and device trees hold no skills, and reading them can hang or never end.
const SYSTEM_FOLDERS = ['/proc', '/sys', '/dev']

function isSystemFolder(real: string): boolean {
  return path.sep === '/' && SYSTEM_FOLDERS.some((folder) => isInside(real, folder))
}

export async function realPathOf(entryPath: string): Promise<string | undefined> {
  try {
    return await realpath(entryPath)
  } catch {
    return undefined
  }
}

/** Code-unit order of names: the same on every machine and locale. */
export function byName(left: Dirent, right: Dirent): number {
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0
}

/** A filesystem error's `code` (`ENOENT`, `EACCES`, …), else its message. */
export function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code
  }
  return errorMessage(error)
}
