import { type FileHandle, open } from 'node:fs/promises'
import { didYouMean } from '../shared/did-you-mean.js'
import type { Logger } from '../shared/logger.js'
import { createSkillTool, formatSkillsPrompt, type Skill } from './create-skill-tool.js'
import { errorCode, findSkillFiles, type SkillLocation } from './find-skill-files.js'
import { listSkillFiles } from './list-skill-files.js'
import { type ParsedSkillFile, parseSkillFile } from './parse-skill-file.js'
import type { SkillsSource } from './skills-source.js'

// Files read at once: enough to overlap the file system's latency, few enough to stay far from EMFILE.
const CONCURRENT_READS = 16

/**
 * Loads the skills under `roots`: finds every `SKILL.md`, reads its frontmatter and body, and samples
 * its folder's files, all now, so the `skill` tool answers from memory and its output is exactly what
 * was on disk at load. Never throws for a skill: a missing root, an unreadable file, a frontmatter without
 * `name` or with broken YAML, and a second skill with a name already taken are each reported to the
 * logger (with the path and the reason) and skipped. Files are read in parallel; warnings and the
 * first-wins choice between duplicates still follow the discovery order.
 *
 * @example
 * const { tools, prompt } = await loadSkills(['./skills'], { logger: console })
 * await tools[0]?.execute({ name: 'hello-world' })
 */
export async function loadSkills(
  roots: string[],
  options: { logger: Logger; filter?: Readonly<Record<string, boolean>> },
): Promise<SkillsSource> {
  const { logger } = options
  const { locations, skillDirectories } = await findSkillFiles(roots, { logger })
  const parsed = await mapConcurrently(locations, readSkillFile)

  const accepted: Array<{ location: SkillLocation; skill: Extract<ParsedSkillFile, { kind: 'skill' }> }> = []
  const fileOf = new Map<string, string>()
  for (const [index, location] of locations.entries()) {
    const result = parsed[index]
    if (result === undefined) continue
    if (result.kind === 'skipped') {
      logger.warn(`Skipped skill ${location.file}: ${result.reason}.`)
      continue
    }
    const first = fileOf.get(result.name)
    if (first !== undefined) {
      logger.warn(`Duplicate skill name "${result.name}": kept ${first}, skipped ${location.file}.`)
      continue
    }
    if (result.warning !== undefined) logger.warn(`Skill ${location.file}: ${result.warning}.`)
    fileOf.set(result.name, location.file)
    accepted.push({ location, skill: result })
  }

  const skills = await mapConcurrently(
    filterSkills(accepted, options.filter, logger),
    async ({ location, skill }): Promise<Skill> => ({
      name: skill.name,
      description: skill.description,
      body: skill.body,
      directory: location.directory,
      file: location.file,
      files: await listSkillFiles(location.directory, { skillDirectories }),
    }),
  )
  return {
    tools: skills.length > 0 ? [createSkillTool(skills)] : [],
    prompt: formatSkillsPrompt(skills),
  }
}

/**
 * The skills a name filter keeps: with any `true`, only those; else all but the `false` ones. A name no
 * skill has is said in a warning (with the closest real name), as a typo would be.
 */
function filterSkills<Entry extends { skill: { name: string } }>(
  accepted: Entry[],
  filter: Readonly<Record<string, boolean>> | undefined,
  logger: Logger,
): Entry[] {
  if (filter === undefined) return accepted
  const names = accepted.map(({ skill }) => skill.name)
  for (const name of Object.keys(filter)) {
    if (names.includes(name)) continue
    const guess = didYouMean(name, names)
    const hint = guess === undefined ? '' : ` Did you mean ${JSON.stringify(guess)}?`
    logger.warn(`The skills filter names ${JSON.stringify(name)}, which no skill has.${hint}`)
  }
  const allowList = Object.values(filter).includes(true)
  return accepted.filter(({ skill }) =>
    allowList ? filter[skill.name] === true : filter[skill.name] !== false,
  )
}

/** The largest `SKILL.md` read, in bytes; a larger one is skipped with a warning naming this limit. */
const MAX_SKILL_FILE_BYTES = 10 * 1024 * 1024
const READ_CHUNK_BYTES = 64 * 1024

async function readSkillFile(location: SkillLocation): Promise<ParsedSkillFile> {
  let file: FileHandle | undefined
  try {
    // Never more than the limit (and one byte to tell) is read, whatever the file's size claims.
    file = await open(location.file, 'r')
    const chunks: Buffer[] = []
    let length = 0
    while (length <= MAX_SKILL_FILE_BYTES) {
      const chunk = Buffer.alloc(Math.min(READ_CHUNK_BYTES, MAX_SKILL_FILE_BYTES + 1 - length))
      const { bytesRead } = await file.read(chunk, 0, chunk.length, length)
      if (bytesRead === 0) break
      chunks.push(chunk.subarray(0, bytesRead))
      length += bytesRead
    }
    if (length > MAX_SKILL_FILE_BYTES) {
      return {
        kind: 'skipped',
        reason: `the file is larger than ${MAX_SKILL_FILE_BYTES / 1024 / 1024} MB, the limit for a SKILL.md`,
      }
    }
    return parseSkillFile(Buffer.concat(chunks, length).toString('utf8'))
  } catch (error) {
    return { kind: 'skipped', reason: `the file cannot be read (${errorCode(error)})` }
  } finally {
    await file?.close().catch(() => undefined)
  }
}

/** `items.map(work)` with at most `CONCURRENT_READS` running at once; results keep the input order. */
async function mapConcurrently<Item, Result>(
  items: readonly Item[],
  work: (item: Item) => Promise<Result>,
): Promise<Result[]> {
  const results: Result[] = new Array(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    for (let index = next++; index < items.length; index = next++) {
      // `index < items.length` was just checked, so the element exists even if `Item` allows undefined.
      results[index] = await work(items[index] as Item)
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_READS, items.length) }, worker))
  return results
}
