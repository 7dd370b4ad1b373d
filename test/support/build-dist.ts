// Builds the package with its own tsup config into a fresh folder, so tests exercise the real ESM and CJS
// output without touching (or racing on) the shared `dist`. The folder sits under node_modules/.cache so
// the built files resolve their dependencies (`ai`, `@cfworker/json-schema`) exactly as an install would.
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** Runs `tsup` (declarations skipped) into a new folder and returns its absolute path. */
export async function buildDist(): Promise<string> {
  const cache = join(root, 'node_modules', '.cache')
  await mkdir(cache, { recursive: true })
  const outDir = await mkdtemp(join(cache, 'toolnexus-test-dist-'))
  await promisify(execFile)(
    process.execPath,
    [join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js'), '--out-dir', outDir, '--no-dts'],
    {
      cwd: root,
      timeout: 240_000,
    },
  )
  return outDir
}

/** Removes a folder `buildDist` made. */
export async function removeDist(outDir: string): Promise<void> {
  await rm(outDir, { recursive: true, force: true })
}
