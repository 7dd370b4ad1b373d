#!/usr/bin/env node
// Type-checks small consumer apps against the packed package, as an app installing it from npm would see
// it: test/consumers/<app> (AI SDK only, with @google/genai, CommonJS), each with `strict` and
// `skipLibCheck: false`, so an error in toolnexus's own declaration files fails. Each app gets a
// node_modules of its own outside the project: the unpacked tarball as `toolnexus`, and links to the
// project's copies of exactly the packages its package.json lists under `linkedDependencies` — so an app
// without @google/genai has none to resolve. Run after `npm run build`.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const apps = join(root, 'test', 'consumers')
const work = mkdtempSync(join(tmpdir(), 'toolnexus-consumers-'))
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
let failed = 0

try {
  // The build ran before this script (CI builds first); prepack's build would write to stdout here.
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
      cwd: root,
      encoding: 'utf8',
    }),
  )[0].filename
  const unpacked = join(work, 'package')
  execFileSync('tar', ['-xzf', join(work, packed), '-C', work])
  for (const app of readdirSync(apps).sort()) {
    const dir = join(work, app)
    cpSync(join(apps, app), dir, { recursive: true })
    const { linkedDependencies = [] } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    for (const name of linkedDependencies) {
      const target = join(dir, 'node_modules', name)
      mkdirSync(dirname(target), { recursive: true })
      symlinkSync(join(root, 'node_modules', name), target, 'dir')
    }
    cpSync(unpacked, join(dir, 'node_modules', 'toolnexus'), { recursive: true })
    try {
      execFileSync(process.execPath, [tsc, '-p', dir], { stdio: 'inherit' })
      console.log(`ok   ${app} (${linkedDependencies.join(', ')})`)
    } catch {
      failed++
      console.error(`FAIL ${app}: see the errors above`)
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
process.exit(failed === 0 ? 0 : 1)
