// What a newcomer reads before the first run: the README says why to pick toolnexus and what the install
// and the first run need (EBADENGINE on Node 20, tsx or Node 24 for `await using`); every page speaks
// plain words, with no lab notes; a route makes its toolkit on the first request (so `next build` starts
// no MCP server) and the genai route sets the API version its shapes are tested against.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { allSnippets, pages, root } from './extract-snippets.js'

const readme = readFileSync(join(root, 'README.md'), 'utf8')
const texts = pages.map((page) => ({ page, text: readFileSync(join(root, page), 'utf8') }))
// A page about the project's own test set-up may name the machine it runs on.
const userPages = texts.filter(({ page }) => page !== 'docs/testing.md')

/** The README's section under `heading`, up to the next `## `. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`)
  if (start === -1) return ''
  const end = readme.indexOf('\n## ', start + 1)
  return readme.slice(start, end === -1 ? undefined : end)
}

describe('the front page', () => {
  it('says why toolnexus, side by side with the AI SDK’s tools, Mastra and LangChain', () => {
    const why = section('Why toolnexus')
    const header = why.split('\n').find((line) => line.startsWith('| |'))
    expect(header?.split('|').map((cell) => cell.trim())).toStrictEqual([
      '',
      '',
      'toolnexus',
      'AI SDK tools',
      'Mastra',
      'LangChain.js',
      '',
    ])
  })

  it.each([
    { what: 'the EBADENGINE warnings of an install on Node 20', pattern: /EBADENGINE/ },
    {
      what: 'tsx or Node 24 for `await using`',
      pattern: /`await using`[\s\S]{0,300}tsx[\s\S]{0,100}Node 24/,
    },
    { what: 'an mcp.json to add', pattern: /```jsonc?\n\{\s*"mcpServers"/ },
  ])('explains $what', ({ pattern }) => {
    expect(readme).toMatch(pattern)
  })
})

describe('every page', () => {
  it.each([
    { word: 'lowered', pattern: /\blowered\b/i },
    { word: 'provider-executed', pattern: /provider-executed/i },
    { word: 'run of record', pattern: /run of record/i },
    { word: 'heavily loaded', pattern: /heavily loaded/i },
    { word: 'agents on cores', pattern: /\bagents on (two|2) cores|\bnine agents/i },
    { word: 'a commit hash', pattern: /\b(commit|at) (?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b/i },
  ])('says it in plain words, without "$word"', ({ pattern }) => {
    const found = userPages.filter(({ text }) => pattern.test(text)).map(({ page }) => page)
    expect(found).toStrictEqual([])
  })

  it('makes a route’s toolkit on the first request, never at module level', () => {
    const routes = allSnippets().filter((snippet) =>
      /export (const|async function) POST\b/.test(snippet.code),
    )
    expect(routes.length).toBeGreaterThan(3)
    const eager = routes
      .filter((snippet) => /^(export )?(const|let) \w+ = (await )?createToolkit\(/m.test(snippet.code))
      .map((snippet) => `${snippet.page}:${snippet.line}`)
    expect(eager).toStrictEqual([])
  })

  it('sets the API version in every genai route', () => {
    const routes = allSnippets().filter(
      (snippet) =>
        /export (const|async function) POST\b/.test(snippet.code) && /new GoogleGenAI\(/.test(snippet.code),
    )
    expect(routes.length).toBeGreaterThan(0)
    const unset = routes
      .filter((snippet) => !/httpOptions: \{[^}]*apiVersion: 'v1beta'/.test(snippet.code))
      .map((snippet) => `${snippet.page}:${snippet.line}`)
    expect(unset).toStrictEqual([])
  })
})

describe('the page for users of the other toolnexus ports', () => {
  const migration = readFileSync(join(root, 'docs', 'from-toolnexus.md'), 'utf8')
  const rows = migration.split('\n').filter((line) => line.startsWith('| `'))

  it.each([
    'onMetric',
    'waitFor` on the client',
    'waitFor` on the toolkit',
    'bodyTransform',
    'onError',
    'skills',
    'skillProvider',
    'skillsFilter',
    'skillSampleLimit',
    'builtins',
    'agents',
    'disableSkills',
    'store` with `get',
  ])('maps `%s` to what does its job here, or says there is none', (option) => {
    const row = rows.find((line) => line.startsWith(`| \`${option}`))
    const answer = row?.split(' | ')[1]?.trim() ?? ''
    expect(answer.length, `${option}: ${row ?? 'no row'}`).toBeGreaterThan(20)
  })
})
