// Secrets: `${VAR}`-expanded header and env values never appear in anything the library writes or returns
// — logger lines, console output, stderr/stdout writes, process warnings, statuses, warnings(), tool
// results, what the model is sent, thrown messages — while servers fail in several ways.
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { startHttpFixture } from '../fixtures/mcp/http-server.mjs'
import { startRecordingServer } from '../http/recording-server.js'
import { provider } from '../loop/support.js'
import { recordingLogger, STDIO_SERVER } from '../mcp/mcp-fixtures.js'
import { startScriptedServer } from '../support/scripted-server.js'
import { failOnUnhandledRejections, settle } from './support.js'

const LEAKY_SERVER = join(import.meta.dirname, '..', 'fixtures', 'reliability', 'leaky-restart.mjs')
const secret = (label: string): string => `${label}-${randomBytes(12).toString('hex')}`

/** Every line the process writes while installed: console methods, stdout, stderr, process warnings. */
function captureEverything(): { lines: string[]; stop(): void } {
  const lines: string[] = []
  const spies = (['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((method) =>
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(
        args.map((arg) => (arg instanceof Error ? `${arg.message}\n${arg.stack}` : String(arg))).join(' '),
      )
    }),
  )
  const writes = (['stdout', 'stderr'] as const).map((name) => {
    const stream = process[name]
    const original = stream.write.bind(stream)
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      lines.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'))
      return (original as (...args: unknown[]) => boolean)(chunk, ...rest)
    }) as typeof stream.write
    return () => {
      stream.write = original
    }
  })
  const onWarning = (warning: Error): void => {
    lines.push(`${warning.name}: ${warning.message}`)
  }
  process.on('warning', onWarning)
  return {
    lines,
    stop() {
      for (const spy of spies) spy.mockRestore()
      for (const restore of writes) restore()
      process.off('warning', onWarning)
    },
  }
}

failOnUnhandledRejections()

describe('secrets while MCP servers and HTTP tools fail', () => {
  const secrets = {
    RELI_REMOTE_TOKEN: secret('remote'),
    RELI_CHILD_SECRET: secret('child'),
    RELI_PARTIAL_SECRET: secret('partial'),
    RELI_HTTP_TOKEN: secret('http'),
    RELI_URL_TOKEN: secret('url'),
  }
  let markerDir: string
  beforeEach(async () => {
    Object.assign(process.env, secrets)
    markerDir = await mkdtemp(join(tmpdir(), 'toolnexus-reliability-secrets-'))
  })
  afterEach(async () => {
    for (const name of Object.keys(secrets)) delete process.env[name]
    await rm(markerDir, { recursive: true, force: true })
  })

  it('appear nowhere: logs, console, stdio, warnings, statuses, results, model requests, thrown messages', async () => {
    const mcp = await startHttpFixture()
    const echoHeaders = await startRecordingServer()
    // An endpoint that fails and quotes the request's headers back, as careless servers do.
    echoHeaders.respond = (request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' })
      response.end(`internal error; request headers were ${JSON.stringify(request.headers)}`)
    }
    const captured = captureEverything()
    const logged = recordingLogger()
    const seen: string[] = []
    try {
      const toolkit = await createToolkit({
        logger: logged.logger,
        mcpConfig: {
          mcpServers: {
            // 401 whose body echoes the Authorization header.
            unauthorized: {
              url: `${mcp.url}/echo-401/mcp`,
              headers: { Authorization: 'Bearer ${RELI_REMOTE_TOKEN}' },
            },
            // A child that prints its environment and dies at start.
            dumper: {
              command: process.execPath,
              args: [STDIO_SERVER, '--fail-start'],
              env: { FIXTURE_SECRET: '${RELI_CHILD_SECRET}' },
            },
            // One variable set, one missing: the message names the missing one, never the set one.
            missing: {
              url: `${mcp.url}/mcp`,
              headers: { 'X-Key': '${RELI_PARTIAL_SECRET}:${RELI_NEVER_SET_ANYWHERE}' },
            },
            // A server that works first, then dumps its environment when it is restarted.
            leaky: {
              command: process.execPath,
              args: [LEAKY_SERVER, join(markerDir, 'leaky-started')],
              env: { FIXTURE_SECRET: '${RELI_CHILD_SECRET}' },
            },
            // A remote server that works, so its headers are really sent.
            working: {
              url: `${mcp.url}/mcp`,
              headers: { Authorization: 'Bearer ${RELI_REMOTE_TOKEN}', 'X-Url-Token': '${RELI_URL_TOKEN}' },
            },
            // A malformed URL next to a secret header.
            badUrl: { url: 'not a url', headers: { Authorization: 'Bearer ${RELI_REMOTE_TOKEN}' } },
          },
        },
        http: [
          {
            name: 'echo_headers',
            description: 'Fails and echoes the request headers.',
            method: 'POST',
            url: `${echoHeaders.origin}/fail`,
            headers: { Authorization: 'Bearer ${RELI_HTTP_TOKEN}', 'X-Also': '${RELI_URL_TOKEN}' },
            inputSchema: { type: 'object', properties: {} },
          },
        ],
      })
      expect(toolkit.mcpStatus()).toStrictEqual({
        unauthorized: 'failed',
        dumper: 'failed',
        missing: 'failed',
        leaky: 'connected',
        working: 'connected',
        badUrl: 'failed',
      })
      // The secrets did reach where they belong: the working server got its header, the child its env.
      expect(
        mcp.requests.some(
          (request) => request.headers.authorization === `Bearer ${secrets.RELI_REMOTE_TOKEN}`,
        ),
      ).toBe(true)
      // (masked in the result, as every result is: '***' rather than '(unset)')
      expect((await toolkit.execute('leaky_env', { name: 'FIXTURE_SECRET' })).output).toBe('***')

      // The model calls: the HTTP tool (500 echoing headers), a crash, then a call that must restart the leaky server.
      const endpoint = await startScriptedServer({
        protocol: provider('openai-chat').protocol,
        script: [
          {
            type: 'reply',
            toolCalls: [
              { id: 'h', name: 'echo_headers', arguments: '{}' },
              { id: 'c', name: 'leaky_crash', arguments: '{}' },
            ],
          },
          { type: 'reply', toolCalls: [{ id: 'r', name: 'leaky_echo', arguments: '{"text":"hi"}' }] },
          { type: 'reply', text: 'all failed' },
        ],
      })
      try {
        const result = await createClient({ model: provider('openai-chat').model(endpoint.url) }).run('go', {
          toolkit,
        })
        expect(result.toolCalls.map((call) => [call.id, call.isError])).toStrictEqual([
          ['h', true],
          ['c', true],
          ['r', true],
        ])
        const [http, , restart] = result.toolCalls
        expect(http?.output).toMatch(/^HTTP 500: internal error; request headers were/)
        expect(restart?.output).toMatch(/leaky/)
        expect(restart?.output).toMatch(/exited with code 2/)
        // The restart really leaked into stderr; the library masked it.
        expect(restart?.output).toContain('FIXTURE_SECRET=***')
        seen.push(JSON.stringify(result), JSON.stringify(endpoint.requests.map((request) => request.body)))
      } finally {
        await endpoint.close()
      }

      // A call to a server that failed at start, and a thrown error from a config that cannot load.
      for (const name of ['unauthorized_echo', 'dumper_echo', 'missing_echo']) {
        seen.push(JSON.stringify(await toolkit.execute(name, { text: 'x' })))
      }
      const thrown = await createToolkit({
        logger: logged.logger,
        // Parsed, as from a file: `headers` has the wrong type, and the value holds a secret.
        mcpConfig: JSON.parse(
          '{"mcpServers":{"broken":{"url":"http://127.0.0.1:1/mcp","headers":"Bearer ${RELI_REMOTE_TOKEN}"}}}',
        ),
      }).then(
        async (other) => {
          seen.push(JSON.stringify(other.mcpServers()), ...other.warnings())
          await other.close()
          return undefined
        },
        (error: unknown) => error,
      )
      if (thrown !== undefined) seen.push(String(thrown), (thrown as Error).stack ?? '')

      seen.push(JSON.stringify(toolkit.mcpServers()), ...toolkit.warnings())
      await toolkit.close()
      await settle(200)
    } finally {
      captured.stop()
      await echoHeaders.close()
      await mcp.close()
    }

    const everything = [...seen, ...logged.lines, ...captured.lines].join('\n')
    // The failures were reported (so the check is not vacuous) ...
    expect(logged.lines.some((line) => line.includes('unauthorized') && line.includes('401'))).toBe(true)
    expect(logged.lines.some((line) => line.includes('dumper') && line.includes('exited with code 3'))).toBe(
      true,
    )
    expect(logged.lines.some((line) => line.includes('RELI_NEVER_SET_ANYWHERE'))).toBe(true)
    expect(everything).toContain('***')
    // ... and no secret, nor its URL-encoded form, is in any of it.
    for (const [name, value] of Object.entries(secrets)) {
      for (const form of [value, encodeURIComponent(value), Buffer.from(value).toString('base64')]) {
        expect([name, everything.includes(form)]).toStrictEqual([name, false])
      }
    }
  }, 60_000)
})
