// The published package reads well outside GitHub: it names its home page, `npm pack` builds it
// first, and every relative link of the README and the docs points at a file the package ships.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { pages, root } from './docs/extract-snippets.js'

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

/** The relative link targets of a markdown page, as paths from the repository's root. */
function linkTargets(page: string): string[] {
  const markdown = readFileSync(join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '')
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target]) => (target ?? '').split('#')[0] ?? '')
    .filter((target) => target !== '' && !/^[a-z]+:/i.test(target))
    .map((target) => normalize(join(dirname(page), target)))
}

describe('the published package', () => {
  it('names its home page, and builds before it is packed', () => {
    expect(typeof manifest.homepage).toBe('string')
    expect(manifest.scripts.prepack).toBe('npm run build')
  })

  it('ships every file the README and the docs link to', { timeout: 120_000 }, async () => {
    const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      timeout: 110_000,
    })
    const shipped = new Set((JSON.parse(stdout)[0]?.files ?? []).map((file: { path: string }) => file.path))
    const links = [...new Set(pages.flatMap(linkTargets))]
    expect(links.length).toBeGreaterThan(20)
    expect(links.filter((link) => !shipped.has(link))).toStrictEqual([])
  })
})
