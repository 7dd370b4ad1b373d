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
