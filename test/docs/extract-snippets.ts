// The ```ts blocks of README.md and docs/*.md, with the markdown line each starts on and the attributes
// of its info string (```ts norun="why it cannot run here").
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface Snippet {
  page: string
  /** The markdown line of the snippet's first code line. */
  line: number
  code: string
  /** `name="value"` pairs after the language in the info string. */
  attributes: Record<string, string>
}

/** The repository's root. */
export const root = join(import.meta.dirname, '..', '..')

/** README.md, then every page of docs/, in name order. */
export const pages: string[] = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
]

/** The ```ts blocks of a markdown text, with the line each starts on. */
export function extractSnippets(page: string, markdown: string): Snippet[] {
  const snippets: Snippet[] = []
  let open: { line: number; code: string[]; attributes: Record<string, string> } | undefined
  let fence: string | undefined
  markdown.split('\n').forEach((text, index) => {
    const marker = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)(.*)$/.exec(text)
    if (open === undefined && fence === undefined && marker) {
      fence = marker[2]
      if (marker[3] === 'ts' || marker[3] === 'typescript') {
        const attributes = Object.fromEntries(
          [...(marker[4] ?? '').matchAll(/([\w-]+)="([^"]*)"/g)].map(([, name, value]) => [name, value]),
        )
        open = { line: index + 2, code: [], attributes }
      }
      return
    }
    if (fence !== undefined && text.trim() === fence) {
      if (open)
        snippets.push({ page, line: open.line, code: open.code.join('\n'), attributes: open.attributes })
      open = undefined
      fence = undefined
      return
    }
    open?.code.push(text)
  })
  return snippets
}

/** Every snippet of every page. */
export function allSnippets(): Snippet[] {
  return pages.flatMap((page) => extractSnippets(page, readFileSync(join(root, page), 'utf8')))
}
