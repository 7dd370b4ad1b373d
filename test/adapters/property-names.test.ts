// Property names a provider refuses are renamed on the way out and mapped back on the way in.
import { describe, expect, it } from 'vitest'
import { toAnthropic } from '../../src/adapters/to-anthropic.js'
import { toGemini } from '../../src/adapters/to-gemini.js'
import { createClient } from '../../src/client/create-client.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { renamedProperties } from '../../src/tool/property-names.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { anthropicSchemaProblems } from '../support/anthropic-schema-rules.js'
import { geminiToolsProblems } from '../support/gemini-subset.js'
import { genaiFor, modelReply, startScriptedGemini } from '../support/scripted-gemini.js'

const schema = {
  type: 'object',
  properties: {
    'filter[id]': { type: 'string' },
    'file.path': { type: 'string' },
    file_path: { type: 'string' },
    options: { type: 'object', properties: { 'dry-run': { type: 'boolean' } } },
  },
  required: ['filter[id]'],
}

function recordingTool(seen: Record<string, unknown>[]) {
  return defineTool({
    name: 'search',
    description: 'Search.',
    inputSchema: schema,
    execute: (args) => {
      seen.push(args)
      return 'ok'
    },
  })
}

describe('renamedProperties', () => {
  it('renames only what providers refuse, never onto a name already taken', () => {
    expect([...renamedProperties(Object.keys(schema.properties))]).toStrictEqual([
      ['filter[id]', 'filter_id_'],
      ['file.path', 'file_path_2'],
    ])
    expect(renamedProperties(['a', 'b_c']).size).toBe(0)
    const long = 'x'.repeat(80)
    expect(renamedProperties([long]).get(long)).toBe('x'.repeat(64))
  })
})

describe('on the way out', () => {
  it('toGemini sends renamed names at every level, required included, and Gemini accepts them', () => {
    const tools = toGemini([recordingTool([])])
    const parameters = tools[0].functionDeclarations[0]?.parameters
    expect(Object.keys(parameters?.properties ?? {})).toStrictEqual([
      'filter_id_',
      'file_path_2',
      'file_path',
      'options',
    ])
    expect(parameters?.required).toStrictEqual(['filter_id_'])
    expect(Object.keys(parameters?.properties?.options?.properties ?? {})).toStrictEqual(['dry_run'])
    expect(geminiToolsProblems(tools)).toStrictEqual([])
  })

  it('toAnthropic renames the root names Anthropic checks, leaving the tool’s schema as it was', () => {
    const tool = recordingTool([])
    const [declared] = toAnthropic([tool])
    expect(anthropicSchemaProblems(declared?.input_schema)).toStrictEqual([])
    expect(anthropicSchemaProblems(tool.inputSchema)).not.toStrictEqual([])
    expect(declared?.input_schema.required).toStrictEqual(['filter_id_'])
  })
})

describe('on the way in', () => {
  it('tk.execute maps the sent names back before validating and running', async () => {
    const seen: Record<string, unknown>[] = []
    await using tk = await createToolkit({ tools: [recordingTool(seen)] })
    const result = await tk.execute('search', {
      filter_id_: '7',
      file_path_2: 'a',
      file_path: 'b',
      options: { dry_run: true },
    })
    expect(result.isError).toBe(false)
    expect(seen).toStrictEqual([
      { 'filter[id]': '7', 'file.path': 'a', file_path: 'b', options: { 'dry-run': true } },
    ])
  })

  it('the original names still work', async () => {
    const seen: Record<string, unknown>[] = []
    await using tk = await createToolkit({ tools: [recordingTool(seen)] })
    await tk.execute('search', { 'filter[id]': '7' })
    expect(seen).toStrictEqual([{ 'filter[id]': '7' }])
  })

  it('a Gemini function call with the sent names reaches the tool with the original ones', async () => {
    await using gemini = await startScriptedGemini({
      script: [
        modelReply([
          { functionCall: { name: 'search', args: { filter_id_: '9', options: { dry_run: false } } } },
        ]),
        modelReply([{ text: 'found' }]),
      ],
    })
    const seen: Record<string, unknown>[] = []
    await using toolkit = await createToolkit({ tools: [recordingTool(seen)] })
    const genai = genaiFor(gemini.baseUrl)
    const result = await createClient({ genai, model: 'gemini-2.5-flash' }).run('go', { toolkit })
    expect(result.text).toBe('found')
    expect(seen).toStrictEqual([{ 'filter[id]': '9', options: { 'dry-run': false } }])
  })
})
