// The tool lists of real third-party MCP servers (test/fixtures/third-party-schemas), served over stdio as
// listed: every provider takes every tool, OpenAI strict mode is kept on each, and the arguments a model
// sends in strict form reach the server as the server's schema says them.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createOpenAI } from '@ai-sdk/openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { strictCached } from '../../src/adapters/to-openai.js'
import { createClient } from '../../src/client/create-client.js'
import { diagnoseTools } from '../../src/doctor/diagnose-tools.js'
import type { JSONSchema } from '../../src/tool/types.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { recordingLogger } from '../mcp/mcp-fixtures.js'
import { openAIStrictProblems } from '../support/openai-strict-rules.js'
import { openaiChatProtocol } from '../support/scripted-openai.js'
import { startScriptedServer } from '../support/scripted-server.js'

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'third-party-schemas')
const REPLAY = join(import.meta.dirname, '..', 'fixtures', 'mcp', 'replay-tools-server.mjs')
const files = readdirSync(FIXTURES).filter((file) => file.endsWith('.json'))
const serverName = (file: string) => file.replace(/\.json$/, '').replaceAll('-', '_')

let toolkit: Toolkit

beforeAll(async () => {
  toolkit = await createToolkit({
    mcpConfig: {
      mcpServers: Object.fromEntries(
        files.map((file) => [
          serverName(file),
          { command: process.execPath, args: [REPLAY, join(FIXTURES, file)] },
        ]),
      ),
    },
    logger: recordingLogger().logger,
  })
}, 120_000)

afterAll(async () => {
  await toolkit?.close()
})

describe('third-party MCP servers, as they list their tools', () => {
  it('every server connects with every tool it lists', () => {
    const listed = files.map((file) => {
      const tools: unknown[] = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8'))
      return [serverName(file), tools.length]
    })
    const servers = toolkit.mcpServers()
    expect(listed.map(([name]) => [name, servers[name as string]?.tools.length])).toStrictEqual(listed)
  })

  it.each(files)('%s: every provider takes every tool, and strict mode is kept on each', (file) => {
    const tools = toolkit.tools().filter((tool) => tool.name.startsWith(`${serverName(file)}_`))
    const report = diagnoseTools(tools)
    expect(report.refused).toStrictEqual({ gemini: 0, openai: 0, 'openai-strict': 0, anthropic: 0 })
    for (const tool of tools) {
      const conversion = strictCached(tool.inputSchema)
      expect([tool.name, conversion.kind]).toStrictEqual([tool.name, 'strict'])
      if (conversion.kind === 'strict') {
        expect([tool.name, openAIStrictProblems(conversion.schema)]).toStrictEqual([tool.name, []])
      }
    }
  })

  it('a call in strict form reaches the server as its schema says: JSON text read back, nulls absent', async () => {
    const endpoint = await startScriptedServer({
      protocol: openaiChatProtocol,
      script: [
        {
          type: 'reply',
          toolCalls: [
            {
              id: 'f',
              name: 'mcp_fetch_server_fetch_html',
              arguments: JSON.stringify({
                url: 'https://example.com',
                headers: '{"Accept": "text/html"}',
                max_length: null,
                start_index: null,
                proxy: null,
              }),
            },
            {
              id: 'd',
              name: 'playwright_mcp_browser_drop',
              arguments: JSON.stringify({
                element: null,
                target: 'e3',
                paths: null,
                data: '{"text/plain": "hello"}',
              }),
            },
          ],
        },
        { type: 'reply', text: 'done' },
      ],
    })
    try {
      const model = createOpenAI({ baseURL: endpoint.url, apiKey: 'k' }).chat('gpt-scripted')
      const result = await createClient({ model, strict: true }).run('go', { toolkit })
      // The scripted endpoint enforces strict mode's rules on every tool declared strict, as OpenAI does.
      const declared: Array<{ function: { name: string; strict: boolean } }> =
        endpoint.requests[0]?.body.tools
      expect(
        declared.filter((tool) => tool.function.strict !== true).map((tool) => tool.function.name),
      ).toStrictEqual([])
      expect(result.toolCalls.map((call) => [call.isError, JSON.parse(call.output)])).toStrictEqual([
        [
          false,
          {
            tool: 'fetch_html',
            arguments: { url: 'https://example.com', headers: { Accept: 'text/html' } },
          },
        ],
        [false, { tool: 'browser_drop', arguments: { target: 'e3', data: { 'text/plain': 'hello' } } }],
      ])
    } finally {
      await endpoint.close()
    }
  })

  it("a required property with a default may be left out: Playwright's screenshot gets scale as the server would", async () => {
    const result = await toolkit.execute('playwright_mcp_browser_take_screenshot', { type: 'png' })
    expect([result.isError, JSON.parse(result.output)]).toStrictEqual([
      false,
      { tool: 'browser_take_screenshot', arguments: { type: 'png', scale: 'css' } },
    ])
  })

  it('JSON text that is not JSON, or not the kind the schema asks for, is refused naming the argument', async () => {
    for (const headers of ['{not json', '[1, 2]']) {
      const result = await toolkit.execute('mcp_fetch_server_fetch_html', {
        url: 'https://example.com',
        headers,
      })
      expect([result.isError, result.output]).toStrictEqual([
        true,
        expect.stringContaining('Invalid arguments for tool "mcp_fetch_server_fetch_html": headers'),
      ])
    }
  })

  it('keeps the schema as the server listed it', () => {
    const listed: Array<{ name: string; inputSchema: JSONSchema }> = JSON.parse(
      readFileSync(join(FIXTURES, 'notion-mcp-server.json'), 'utf8'),
    )
    const tool = toolkit.get('notion_mcp_server_API-get-user')
    expect(tool?.inputSchema).toStrictEqual(listed.find((each) => each.name === 'API-get-user')?.inputSchema)
  })
})
