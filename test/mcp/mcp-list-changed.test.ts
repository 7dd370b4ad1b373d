import { join } from 'node:path'
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider'
import { MockLanguageModelV3 } from 'ai/test'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { FIXTURES, recordingLogger } from './mcp-fixtures.js'

const CHANGING = join(FIXTURES, 'changing-server.mjs')

const toolkits: Toolkit[] = []
afterEach(async () => {
  await Promise.all(toolkits.splice(0).map((toolkit) => toolkit.close()))
})

async function changingToolkit(): Promise<Toolkit> {
  const toolkit = await createToolkit({
    mcpConfig: { mcpServers: { box: { command: process.execPath, args: [CHANGING] } } },
    logger: recordingLogger().logger,
  })
  toolkits.push(toolkit)
  return toolkit
}

function reply(calls: string[]): LanguageModelV3GenerateResult {
  return {
    content: calls.length
      ? calls.map((name, index) => ({
          type: 'tool-call' as const,
          toolCallId: `c${index}-${name}`,
          toolName: name,
          input: '{}',
        }))
      : [{ type: 'text' as const, text: 'done' }],
    finishReason: { unified: calls.length ? 'tool-calls' : 'stop', raw: undefined },
    usage: {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    },
    warnings: [],
  }
}

describe('notifications/tools/list_changed', () => {
  it('a run already going declares the new tool at its next model call, and can call it', async () => {
    const toolkit = await changingToolkit()
    const before = toolkit.tools()
    expect(before.map((tool) => tool.name)).not.toContain('box_vault')
    const answers = [reply(['box_unlock']), reply(['box_vault']), reply(['box_lock']), reply([])]
    let index = 0
    const model = new MockLanguageModelV3({
      doGenerate: async () => answers[index++] as LanguageModelV3GenerateResult,
    })
    const result = await createClient({ model }).run('open it', { toolkit })
    const declared = model.doGenerateCalls.map((call) =>
      (call.tools ?? []).some((tool) => tool.name === 'box_vault'),
    )
    expect(declared).toStrictEqual([false, true, true, false])
    expect(result.toolCalls.map((call) => [call.name, call.output, call.isError])).toStrictEqual([
      ['box_unlock', 'unlocked', false],
      ['box_vault', 'the vault is open', false],
      ['box_lock', 'locked', false],
    ])
  })

  it('tools(), get() and mcpServers() reflect the change; an unchanged list keeps its identity', async () => {
    const toolkit = await changingToolkit()
    const first = toolkit.tools()
    expect(toolkit.tools()).toBe(first)
    await toolkit.execute('box_unlock', {})
    expect(toolkit.tools()).not.toBe(first)
    expect(toolkit.get('box_vault')?.source).toBe('mcp')
    expect(toolkit.mcpServers().box?.tools).toContain('box_vault')
    expect(toolkit.toOpenAI().map((tool) => tool.function.name)).toContain('box_vault')
    await toolkit.execute('box_lock', {})
    expect(toolkit.get('box_vault')).toBeUndefined()
    expect(toolkit.mcpServers().box?.tools).not.toContain('box_vault')
    expect((await toolkit.execute('box_vault', {})).output).toContain('Unknown tool "box_vault"')
  })
})

describe('outputSchema and structuredContent', () => {
  it('valid structured content is the output and stays in metadata.structuredContent', async () => {
    const toolkit = await changingToolkit()
    const result = await toolkit.execute('box_weather', {})
    expect(result).toMatchObject({ output: '{"temperature":21}', isError: false })
    expect(result.metadata?.structuredContent).toStrictEqual({ temperature: 21 })
  })

  it('structured content that breaks the declared schema is an error naming the field', async () => {
    const toolkit = await changingToolkit()
    const result = await toolkit.execute('box_broken_weather', {})
    expect(result.isError).toBe(true)
    expect(result.output).toMatch(
      /^MCP tool "broken_weather" on server "box" returned structuredContent that does not match its output schema: .*temperature/,
    )
    expect(result.metadata?.structuredContent).toStrictEqual({ temperature: 'hot' })
  })

  it('a tool that declares an output schema and returns none is an error', async () => {
    const toolkit = await changingToolkit()
    const result = await toolkit.execute('box_no_structure', {})
    expect(result).toMatchObject({
      isError: true,
      output:
        'MCP tool "no_structure" on server "box" declares an output schema but returned no structuredContent.',
    })
  })
})
