#!/usr/bin/env node
// After tsup: gives the declaration chunk the entries share a readable name. tsup names it after its first
// module plus a hash (`conversation-store-CgaJl4h1.d.ts`), which is where go-to-definition lands for
// `Tool`, `Toolkit` and every other shared type; it becomes `dist/shared.d.ts` (and `.d.cts`), or
// `dist/shared-<module>.d.ts` when there are several, and every import of it is rewritten.
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const dist = join(import.meta.dirname, '..', 'dist')
const files = readdirSync(dist)
const chunk = /^(.+)-[A-Za-z0-9_-]{8}\.d\.(c?)ts$/
const chunks = files.filter((file) => chunk.test(file))
const bases = new Set(chunks.map((file) => file.replace(chunk, '$1')))
const renames = new Map()
for (const file of chunks) {
  const [, base, c] = chunk.exec(file)
  const name = bases.size === 1 ? 'shared' : `shared-${base}`
  renames.set(file, `${name}.d.${c}ts`)
}
const declarations = files.filter((file) => /\.d\.c?ts$/.test(file))
for (const file of declarations) {
  const path = join(dist, file)
  let text = readFileSync(path, 'utf8')
  for (const [from, to] of renames) {
    // Imports name the chunk by its JavaScript twin: './x-HASH.js' from .d.ts, './x-HASH.cjs' from .d.cts.
    const stem = from.replace(/\.d\.c?ts$/, '')
    const ext = from.endsWith('.d.cts') ? '.cjs' : '.js'
    text = text.replaceAll(`'./${stem}${ext}'`, `'./${to.replace(/\.d\.c?ts$/, '')}${ext}'`)
  }
  writeFileSync(path, text)
}
for (const [from, to] of renames) renameSync(join(dist, from), join(dist, to))
if (renames.size > 0) console.log(`declaration chunks named: ${[...renames.values()].join(', ')}`)
