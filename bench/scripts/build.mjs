// Transpiles bench/src to bench/dist with esbuild, file by file (no bundling: each implementation must load
// its own node_modules exactly as a user's app would).

import { readdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..')
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
