// Every schema of the lowering corpus and of four real MCP servers, converted for each provider, passes an
// independent checker of that provider's rules: Gemini's subset with typed nodes, OpenAI's strict mode,
// Anthropic's root rules. A tool strict mode cannot take is sent without it, and doctor says so.

import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toAnthropic } from '../../src/adapters/to-anthropic.js'
import { toGemini } from '../../src/adapters/to-gemini.js'
import { toOpenAI } from '../../src/adapters/to-openai.js'
import { diagnoseTools } from '../../src/doctor/diagnose-tools.js'
import type { JSONSchema, Tool } from '../../src/tool/types.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { anthropicSchemaProblems } from '../support/anthropic-schema-rules.js'
import { geminiToolsProblems } from '../support/gemini-subset.js'
import { openAIStrictProblems } from '../support/openai-strict-rules.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const fixturesDirectory = new URL('./__fixtures__/schemas/', import.meta.url)

function toolWith(name: string, inputSchema: JSONSchema): Tool {
  return {
    name: name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64),
    description: 'x',
    inputSchema,
    source: 'custom',
    execute: async () => ({ output: 'ok', isError: false }),
  }
}

const corpus: Tool[] = readdirSync(fixturesDirectory)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .flatMap((file) => {
    const fixture = JSON.parse(readFileSync(new URL(file, fixturesDirectory), 'utf8')) as {
      tools: { name: string; inputSchema: JSONSchema }[]
    }
    return fixture.tools.map((tool) =>
      toolWith(`${file.replace('.json', '')}_${tool.name}`.slice(-64), tool.inputSchema),
    )
  })

/** Every provider's checker over one tool list; the problems found, by provider and tool. */
function checkAll(tools: readonly Tool[]): string[] {
  const problems: string[] = []
  for (const [index, declaration] of toGemini(tools)[0].functionDeclarations.entries()) {
    for (const problem of geminiToolsProblems([{ functionDeclarations: [declaration] }])) {
      problems.push(`gemini ${tools[index]?.name}: ${problem}`)
    }
  }
  const report = diagnoseTools(tools)
  for (const [index, tool] of toOpenAI(tools, { strict: true, logger: { warn: () => {} } }).entries()) {
    const verdict = report.tools[index]?.providers['openai-strict']
    if (tool.function.strict === true) {
      for (const problem of openAIStrictProblems(tool.function.parameters)) {
        problems.push(`openai-strict ${tool.function.name}: ${problem}`)
      }
      if (verdict?.status === 'refused')
        problems.push(`doctor calls ${tool.function.name} refused, yet it is sent strict`)
    } else if (verdict?.status !== 'refused') {
      problems.push(
        `${tool.function.name} is sent without strict mode, yet doctor does not say it is refused`,
      )
    }
  }
  for (const tool of toAnthropic(tools)) {
    for (const problem of anthropicSchemaProblems(tool.input_schema))
      problems.push(`anthropic ${tool.name}: ${problem}`)
  }
  return problems
}

describe('the lowering corpus, for every provider', () => {
  it('holds untyped nodes, strict-mode cases and renamed properties', () => {
    const names = corpus.map((tool) => tool.name)
    expect(names).toContain('untyped-strict-renamed_store_value')
    expect(names).toContain('untyped-strict-renamed_list_builds')
  })

  it('passes every provider’s checker', () => {
    expect(checkAll(corpus)).toStrictEqual([])
  })

  it('doctor reports what each provider makes of the hard cases', () => {
    const report = diagnoseTools(corpus)
    const verdicts = Object.fromEntries(report.tools.map((tool) => [tool.name, tool.providers]))
    const store = verdicts['untyped-strict-renamed_store_value']
    expect(store?.gemini.status).toBe('as-is')
    expect(store?.['openai-strict']).toMatchObject({ status: 'refused' })
    const builds = verdicts['untyped-strict-renamed_list_builds']
    expect(builds?.gemini).toMatchObject({
      status: 'adapted',
      changes: expect.arrayContaining(['renamed filter[app] → filter_app_']),
    })
    expect(builds?.anthropic).toMatchObject({ status: 'adapted' })
    const trip = verdicts['untyped-strict-renamed_book_trip']
    expect(trip?.['openai-strict']).toMatchObject({
      status: 'adapted',
      lost: expect.arrayContaining(['minLength', 'default']),
    })
  })
})

describe('four real MCP servers over stdio, for every provider', () => {
  let toolkit: Toolkit
  let scratch: string

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'toolnexus-mcp-servers-'))
    const server = (name: string) =>
      join(root, 'node_modules', '@modelcontextprotocol', name, 'dist', 'index.js')
    toolkit = await createToolkit({
      mcpConfig: {
        mcpServers: {
          everything: { command: process.execPath, args: [server('server-everything'), 'stdio'] },
          filesystem: { command: process.execPath, args: [server('server-filesystem'), scratch] },
          memory: {
            command: process.execPath,
            args: [server('server-memory')],
            env: { MEMORY_FILE_PATH: join(scratch, 'memory.jsonl') },
          },
          thinking: { command: process.execPath, args: [server('server-sequential-thinking')] },
        },
      },
      logger: { warn: () => {} },
    })
  }, 60_000)

  afterAll(async () => {
    await toolkit?.close()
    await rm(scratch, { recursive: true, force: true })
  })

  it('connects all four and passes every provider’s checker on their live schemas', () => {
    expect(toolkit.mcpStatus()).toStrictEqual({
      everything: 'connected',
      filesystem: 'connected',
      memory: 'connected',
      thinking: 'connected',
    })
    const tools = toolkit.tools()
    expect(tools.length).toBeGreaterThan(20)
    expect(checkAll(tools)).toStrictEqual([])
  })
})
