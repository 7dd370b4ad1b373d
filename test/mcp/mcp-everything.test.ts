import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createToolkit, type Toolkit } from '../../src/index.js'
import { everythingServerPath, processesWithMarker, recordingLogger } from './mcp-fixtures.js'

// The real third-party reference server, started as `node <its dist/index.js> stdio` (never through npx).
const SERVER = everythingServerPath()
const SECRET = `everything-secret-${randomUUID()}`
// On this file's server command lines only (the server ignores it): other test files running at the
// same time start server-everything too, so the path alone would find their processes.
const MARKER = `--toolnexus-test=${randomUUID()}`

describe('@modelcontextprotocol/server-everything through createToolkit', () => {
  let toolkit: Toolkit
  const { logger, lines } = recordingLogger()

  beforeAll(async () => {
    vi.stubEnv('TOOLNEXUS_EVERYTHING_SECRET', SECRET)
    const started = Date.now()
    toolkit = await createToolkit({
      logger,
      mcpConfig: {
        mcpServers: {
          everything: {
            command: process.execPath,
            args: [SERVER, 'stdio', MARKER],
            env: { EVERYTHING_SECRET: '${TOOLNEXUS_EVERYTHING_SECRET}' },
          },
        },
        mcp: {
          picky: {
            type: 'local',
            command: ['node', SERVER, 'stdio', MARKER],
            tools: { echo: true, 'get-sum': true },
          },
        },
      },
    })
    console.log(`[mcp] two server-everything processes connected and listed in ${Date.now() - started} ms`)
  }, 60_000)

  afterAll(async () => {
    await toolkit?.close()
    vi.unstubAllEnvs()
  })

  it('connects both dialects and lists the tools, the allowlist keeping only the named ones', () => {
    expect(toolkit.mcpStatus()).toStrictEqual({ everything: 'connected', picky: 'connected' })
    const names = toolkit.mcpServers().everything?.tools ?? []
    for (const name of [
      'echo',
      'get-sum',
      'get-tiny-image',
      'get-structured-content',
      'get-resource-links',
    ]) {
      expect(names).toContain(`everything_${name}`)
    }
    expect(toolkit.mcpServers().picky?.tools).toStrictEqual(['picky_echo', 'picky_get-sum'])
  })

  it('runs echo and get-sum', async () => {
    expect(await toolkit.execute('everything_echo', { message: 'hello' })).toMatchObject({
      output: 'Echo: hello',
      isError: false,
    })
    const sum = await toolkit.execute('picky_get-sum', { a: 2, b: 40 })
    expect(sum.isError).toBe(false)
    expect(sum.output).toContain('42')
  })

  it('checks arguments against the schema the server published', async () => {
    const result = await toolkit.execute('everything_echo', {})
    expect(result.isError).toBe(true)
    expect(result.output).toContain('Invalid arguments for tool "everything_echo"')
  })

  it('summarizes the image, and returns structured content as JSON text', async () => {
    const image = await toolkit.execute('everything_get-tiny-image', {})
    expect(image.isError).toBe(false)
    expect(image.output).toMatch(/\[image: image\/png, \d+ bytes\]/)
    const structured = await toolkit.execute('everything_get-structured-content', { location: 'New York' })
    expect(structured.isError).toBe(false)
    expect(Object.keys(JSON.parse(structured.output) as object).sort()).toStrictEqual([
      'conditions',
      'humidity',
      'temperature',
    ])
  })

  it('summarizes resource links rather than dropping them', async () => {
    const links = await toolkit.execute('everything_get-resource-links', { count: 2 })
    expect(links.isError).toBe(false)
    expect(links.output.match(/\[resource link: /g)).toHaveLength(2)
  })

  it('starts the server with the process environment plus its own', async () => {
    const env = await toolkit.execute('everything_get-env', {})
    // The server has its configured value; the result shows it masked, as every result is.
    expect(env.output).toMatch(/"EVERYTHING_SECRET":\s*"\*\*\*"/)
    expect(env.output).not.toContain(SECRET)
    expect(env.output).toContain('PATH')
    expect([...lines, JSON.stringify(toolkit.mcpServers())].join('\n')).not.toContain(SECRET)
  })

  it('close() ends both server processes', async () => {
    expect(processesWithMarker(MARKER)).toHaveLength(2)
    const started = Date.now()
    await toolkit.close()
    console.log(`[mcp] close() of two server-everything processes took ${Date.now() - started} ms`)
    expect(processesWithMarker(MARKER)).toStrictEqual([])
  })
})
