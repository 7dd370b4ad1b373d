// MCP message size limits are named when they bite: a result over the 10 MB limit is answered with an
// error naming it (the server is not killed, so there is no restart storm), a tool list over it fails
// the server with that reason, and metadata kept beside a capped output is bounded like the output.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { startOversizedHttpServer } from '../fixtures/reliability/oversized-http-server.js'
import { recordingLogger } from '../mcp/mcp-fixtures.js'
import { failOnUnhandledRejections } from './support.js'

// A 50 MB answer is made, sent and read up to the limit: CPU work a busy 2-core machine stretches many
// times over. The bound ends a hung test; it does not time the work.
const SIZE_TEST_TIMEOUT_MS = 180_000

failOnUnhandledRejections()

const SERVER = join(import.meta.dirname, '..', 'fixtures', 'reliability', 'oversized-server.mjs')
const server = (...flags: string[]) => ({ command: process.execPath, args: [SERVER, ...flags] })

describe('MCP message size limits', () => {
  it.each([[[]], [['--id-last']]])(
    'a 50 MB result is "too large (limit 10 MB)", and the server goes on serving without a restart (%j)',
    async (flags) => {
      await using tk = await createToolkit({
        logger: recordingLogger().logger,
        mcpConfig: { mcpServers: { big: server(...flags) } },
      })
      const result = await tk.execute('big_huge', { megabytes: 50 })
      expect(result.isError).toBe(true)
      expect(result.output).toBe(
        'MCP tool "huge" on server "big" failed: the server\'s answer is too large (50 MB; the limit for one MCP message is 10 MB)',
      )
      expect(tk.mcpStatus()).toStrictEqual({ big: 'connected' })
      expect(await tk.execute('big_small', {})).toMatchObject({ output: 'ok', isError: false })
      // The same process answered all three: no restart.
      expect((await tk.execute('big_calls', {})).output).toBe('3')
    },
    SIZE_TEST_TIMEOUT_MS,
  )

  it(
    '100,000 tools fail the server with a reason naming the message size limit',
    async () => {
      const { logger, lines } = recordingLogger()
      await using tk = await createToolkit({
        logger,
        mcpConfig: { mcpServers: { many: server('--tools', '100000') } },
      })
      expect(tk.mcpServers().many).toMatchObject({
        status: 'failed',
        reason: expect.stringContaining('the limit for one MCP message is 10 MB'),
      })
      expect(lines.join('\n')).toContain('the limit for one MCP message is 10 MB')
    },
    SIZE_TEST_TIMEOUT_MS,
  )

  it(
    'metadata.content of a result whose output was capped is bounded like the output',
    async () => {
      await using tk = await createToolkit({
        logger: recordingLogger().logger,
        maxOutputChars: 1_000,
        mcpConfig: { mcpServers: { big: server() } },
      })
      const result = await tk.execute('big_huge', { megabytes: 5 })
      expect(result.isError).toBe(false)
      expect(result.output.length).toBeLessThan(1_100)
      expect(result.metadata?.truncated).toBe(true)
      expect(JSON.stringify(result.metadata).length).toBeLessThan(2_000)
    },
    SIZE_TEST_TIMEOUT_MS,
  )

  it.each([
    ['json', false],
    ['json', true],
    ['sse', false],
    ['sse', true],
  ] as const)(
    'over streamable HTTP (%s answers, id last: %s), a 50 MB result is "too large (limit 10 MB)" and the server goes on serving',
    async (answer, idLast) => {
      const http = await startOversizedHttpServer({ answer, idLast })
      try {
        await using tk = await createToolkit({
          logger: recordingLogger().logger,
          mcpConfig: { mcpServers: { big: { url: http.url } } },
        })
        const result = await tk.execute('big_huge', { megabytes: 50 })
        expect(result.isError).toBe(true)
        expect(result.output).toContain(
          answer === 'json'
            ? "the server's answer is too large (50 MB; the limit for one MCP message is 10 MB)"
            : "the server's answer is too large (50 MB; the limit for one MCP message is 10 MB)",
        )
        expect(tk.mcpStatus()).toStrictEqual({ big: 'connected' })
        expect(await tk.execute('big_small', {})).toMatchObject({ output: 'ok', isError: false })
        expect((await tk.execute('big_calls', {})).output).toBe('3')
      } finally {
        await http.close()
      }
    },
    SIZE_TEST_TIMEOUT_MS,
  )
})
