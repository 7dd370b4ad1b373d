// docs/errors.md against src/errors.ts, both ways: every error class errors.ts exports has its section
// (a `### \`Name\`` heading) that names each of its fields, every section is a class errors.ts exports,
// and the root entry exports each class unchanged.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import * as errors from '../../src/errors.js'
import { ToolnexusError } from '../../src/errors.js'
import * as rootEntry from '../../src/index.js'

const page = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8')

/** Each `### \`Name\`` section of the page, by class name, with its text up to the next heading. */
function documentedSections(markdown: string): Map<string, string> {
  const sections = new Map<string, string>()
  for (const part of markdown.split(/^(?=#{2,3} )/m)) {
    const heading = /^### `(\w+)`\n/.exec(part)
    if (heading?.[1] !== undefined) sections.set(heading[1], part)
  }
  return sections
}

const errorClasses = Object.entries(errors).filter(
  (entry): entry is [string, typeof ToolnexusError] =>
    typeof entry[1] === 'function' &&
    (entry[1] === ToolnexusError || entry[1].prototype instanceof ToolnexusError),
)
const sections = documentedSections(page)
const classByName = new Map(errorClasses)

/** One instance of each class, with every optional field set, to read its fields from. */
const samples: Record<string, ToolnexusError> = {
  ToolnexusError: new errors.ToolnexusError('message'),
  ToolDefinitionError: new errors.ToolDefinitionError('message'),
  ConfigError: new errors.ConfigError('message', { file: '/app/mcp.json', field: 'mcpServers' }),
  ModelCallError: new errors.ModelCallError('message', { statusCode: 429, attempts: 3 }),
  AbortError: new errors.AbortError('message', { reason: 'timeout', timeoutMs: 1_000 }),
  StoreError: new errors.StoreError('message', { operation: 'save' }),
  ApprovalError: new errors.ApprovalError('message', { code: 'expired-approval' }),
  McpRequestError: new errors.McpRequestError('message', { server: 'github', method: 'resources/read' }),
  ToolResultError: new errors.ToolResultError('message', { status: 503 }),
}

describe('docs/errors.md', () => {
  it('documents exactly the error classes src/errors.ts exports', () => {
    expect([...sections.keys()].sort()).toStrictEqual(errorClasses.map(([name]) => name).sort())
  })

  it.each(errorClasses)('%s is exported unchanged from the root entry', (name, errorClass) => {
    expect((rootEntry as Record<string, unknown>)[name]).toBe(errorClass)
  })

  it.each(errorClasses)('the section of %s says when, its fields and how to handle it', (name) => {
    const section = sections.get(name) ?? ''
    expect(
      [/\*\*When:\*\*/, /\*\*Fields:\*\*/, /\*\*How to handle:\*\*/].map((label) => label.test(section)),
    ).toStrictEqual([true, true, true])
  })

  it.each(errorClasses)('the section of %s names each of its fields', (name) => {
    const sample = samples[name]
    expect(sample?.constructor).toBe(classByName.get(name))
    const fields = Object.keys(sample ?? {}).filter((field) => field !== 'name')
    const fieldsText =
      /\*\*Fields:\*\*([\s\S]*?)\*\*How to handle:\*\*/.exec(sections.get(name) ?? '')?.[1] ?? ''
    expect(fields.filter((field) => !fieldsText.includes(`\`${field}\``))).toStrictEqual([])
  })
})
