// Prepares the bench to run: snapshots the built library into node_modules/toolnexus (so the bench imports
// `toolnexus` exactly as an app would, and a rebuild of ../dist mid-run cannot pull it from under the
// workers), then transpiles bench/src to bench/dist with esbuild, file by file (no bundling: each
// implementation loads its own node_modules exactly as a user's app would).

import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..')
const libraryDir = join(benchDir, '..')
const snapshotDir = join(benchDir, 'node_modules', 'toolnexus')

for (const file of ['index.js', 'index.d.ts']) {
  if (!existsSync(join(libraryDir, 'dist', file))) {
    throw new Error(
      `the library is not built (no dist/${file}): run \`npm run build\` in the repository root first`,
    )
  }
}
rmSync(snapshotDir, { recursive: true, force: true })
cpSync(join(libraryDir, 'dist'), join(snapshotDir, 'dist'), { recursive: true })
const manifest = JSON.parse(readFileSync(join(libraryDir, 'package.json'), 'utf8'))
writeFileSync(join(snapshotDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)

// The snapshot is not installed by npm, so its dependencies resolve from whatever bench/node_modules
// holds: a peer's older copy of one (a framework's own MCP SDK) would shadow the version the library
// needs, and a row would fail or measure other code. bench/package.json pins the library's own; this says
// so when they drift.
for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
  const found = JSON.parse(readFileSync(packageJsonOf(name), 'utf8')).version
  if (!satisfiesCaret(found, range)) {
    throw new Error(
      `the bench resolves the library's dependency ${name} to ${found}, outside its ${range}: pin it in bench/package.json`,
    )
  }
}

function packageJsonOf(name) {
  // Node's own lookup for a bare name: node_modules/<name> in the importing folder and each one above it.
  for (let folder = snapshotDir; ; folder = dirname(folder)) {
    const candidate = join(folder, 'node_modules', name, 'package.json')
    if (existsSync(candidate)) return candidate
    if (dirname(folder) === folder)
      throw new Error(`the bench cannot resolve the library's dependency ${name}`)
  }
}

/** Whether `version` is within a caret range `^X.Y.Z` (other ranges are taken as met). */
function satisfiesCaret(version, range) {
  const wanted = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range)
  if (wanted === null) return true
  const [major, minor, patch] = version.split('.').map((part) => Number.parseInt(part, 10))
  const [, wantMajor, wantMinor, wantPatch] = wanted.map(Number)
  if (major !== wantMajor) return false
  return minor > wantMinor || (minor === wantMinor && patch >= wantPatch)
}

const sourceDir = join(benchDir, 'src')
const entryPoints = readdirSync(sourceDir, { recursive: true })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => join(sourceDir, file))

rmSync(join(benchDir, 'dist'), { recursive: true, force: true })
await build({
  entryPoints,
  outdir: join(benchDir, 'dist'),
  outbase: sourceDir,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  bundle: false,
  sourcemap: true,
  logLevel: 'warning',
})
