// Every ```ts snippet of README.md and docs/*.md is a module a reader could paste into a strict TypeScript
// app: it imports what it uses and compiles (run-snippets.test.ts then runs each to its end). Each
// snippet becomes its own file; `toolnexus` resolves to this repository's sources. A failure names the
// markdown file and line. One synchronous compile of every snippet: on a busy 2-core machine it can take
// minutes, hence the long timeout.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'
import { allSnippets, extractSnippets, pages, root, type Snippet } from './extract-snippets.js'

const snippets = allSnippets()
// Inside the project, so that the snippets' imports resolve from its node_modules as an app's would.
const cacheDir = join(root, 'node_modules', '.cache')
mkdirSync(cacheDir, { recursive: true })
const workDir = mkdtempSync(join(cacheDir, 'snippets-'))
afterAll(() => rmSync(workDir, { recursive: true, force: true }))

describe('documentation snippets', () => {
  it('finds the snippets of every page', () => {
    expect(pages).toContain('README.md')
    expect(snippets.length).toBeGreaterThan(20)
  })

  it('extracts ts blocks only, with their markdown line', () => {
    const markdown = [
      '# t',
      '```ts',
      'const a = 1',
      '```',
      '```sh',
      'npm test',
      '```',
      '```ts norun="a fragment" cwd="empty"',
      'b',
      '```',
    ].join('\n')
    expect(extractSnippets('x.md', markdown)).toStrictEqual([
      { page: 'x.md', line: 3, code: 'const a = 1', attributes: {} },
      { page: 'x.md', line: 9, code: 'b', attributes: { norun: 'a fragment', cwd: 'empty' } },
    ])
  })

  it('type-checks every snippet as its own strict module', { timeout: 360_000 }, () => {
    const files = snippets.map((snippet, index) => {
      const file = join(workDir, `snippet-${index}.ts`)
      // `export {}` makes a snippet without imports a module too, so top-level await is allowed.
      writeFileSync(file, `${snippet.code}\nexport {}\n`)
      return { file, snippet }
    })
    const program = ts.createProgram(
      files.map(({ file }) => file),
      {
        strict: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts', 'lib.esnext.disposable.d.ts'],
        types: ['node'],
        typeRoots: [join(root, 'node_modules', '@types')],
        skipLibCheck: true,
        noEmit: true,
        baseUrl: root,
        paths: {
          toolnexus: ['src/index.ts'],
          'toolnexus/next': ['src/next/index.ts'],
          'toolnexus/redis': ['src/redis/index.ts'],
          'toolnexus/postgres': ['src/postgres/index.ts'],
          'toolnexus/mcp-server': ['src/mcp-server/index.ts'],
          'toolnexus/dbos': ['src/dbos/index.ts'],
        },
      },
    )
    const bySnippet = new Map(files.map(({ file, snippet }) => [file, snippet]))
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file !== undefined && bySnippet.has(diagnostic.file.fileName))
      .map((diagnostic) => {
        const file = diagnostic.file as ts.SourceFile
        const snippet = bySnippet.get(file.fileName) as Snippet
        const { line } = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0)
        const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')
        return `${snippet.page}:${snippet.line + line}: ${message}`
      })
    expect(problems, `in ${relative(root, workDir) || workDir}`).toEqual([])
  })
})
