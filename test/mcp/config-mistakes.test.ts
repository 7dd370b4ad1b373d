// Mistakes in an mcp.json get answers that point at the fix: a did-you-mean for a misspelt key, the file
// and field on a ConfigError, an allow-list warning listing the server's real tool names; and the
// shorter forms other ports accept (a bare server map, the config's JSON text) load.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/errors.js'
import { parseMcpConfig } from '../../src/mcp/parse-mcp-config.js'
import { readMcpConfig } from '../../src/mcp/read-mcp-config.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { stdioServer } from './mcp-fixtures.js'

const options = { origin: '/configs/mcp.json', baseDir: '/configs', env: {} }
let dir = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolnexus-config-mistakes-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('did you mean', () => {
  it('names the key a misspelt one stands for, in the reason of the server it breaks', () => {
    const { servers, warnings } = parseMcpConfig({ mcpServers: { github: { comand: 'npx' } } }, options)
    expect(servers[0]).toEqual({
      kind: 'invalid',
      name: 'github',
      reason:
        'needs "command" (a local server) or "url" (a remote server); did you mean "command"? (found "comand") (mcpServers.github in /configs/mcp.json)',
    })
    expect(warnings).toEqual([])
  })

  it('warns about a near miss on a server that works anyway', () => {
    const { servers, warnings } = parseMcpConfig(
      { mcpServers: { files: { command: 'files-server', timout: 1000 } } },
      options,
    )
    expect(servers[0]?.kind).toBe('stdio')
    expect(warnings).toEqual([
      'MCP server "files" (mcpServers.files in /configs/mcp.json) has an unknown key "timout": did you mean "timeout"?',
    ])
  })

  it('leaves keys alone that are not near a known one', () => {
    const { warnings } = parseMcpConfig(
      { mcpServers: { files: { command: 'files-server', description: 'my files', autoApprove: [] } } },
      options,
    )
    expect(warnings).toEqual([])
  })

  it('names the section a misspelt top-level key stands for, with the file and field', () => {
    let error: unknown
    try {
      parseMcpConfig({ mcpServer: { github: { comand: 'npx' } } }, options)
    } catch (caught) {
      error = caught
    }
    expect(ConfigError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ file: '/configs/mcp.json', field: 'mcpServer' })
    expect((error as Error).message).toContain('Did you mean "mcpServers"? (found "mcpServer")')
  })
})

describe('ConfigError file and field', () => {
  it('a missing file: the resolved path', async () => {
    const error = await readMcpConfig('missing.json', { cwd: dir }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ file: join(dir, 'missing.json'), field: undefined })
  })

  it('malformed JSON: the file', async () => {
    const path = join(dir, 'broken.json')
    await writeFile(path, '{ "mcpServers": { ')
    const error = await readMcpConfig(path).catch((caught: unknown) => caught)
    expect(ConfigError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ file: path })
  })

  it.each([
    ['/dev/urandom', 'it is not a regular file (a device, FIFO or socket may never end)'],
    ['/dev/zero', 'it is not a regular file (a device, FIFO or socket may never end)'],
  ])('a config that never ends (%s) is refused at once, not read forever', async (path, reason) => {
    const error = await readMcpConfig(path).catch((caught: unknown) => caught)
    expect(ConfigError.isInstance(error)).toBe(true)
    expect((error as Error).message).toBe(
      `MCP config ${path} could not be read: ${reason}. Pass the path of an existing mcp.json as mcpConfig, or the parsed object.`,
    )
  })

  it('a config over 4 MB is refused with the limit, not read', async () => {
    const path = join(dir, 'huge.json')
    await writeFile(path, `{"mcpServers":{},"pad":"${'x'.repeat(5 * 1024 * 1024)}"}`)
    const error = await readMcpConfig(path).catch((caught: unknown) => caught)
    expect((error as Error).message).toContain(
      'could not be read: it is larger than 4 MB, the limit for a config file.',
    )
  })

  it('a section of the wrong type: the section as field; an object config has no file', () => {
    let error: unknown
    try {
      parseMcpConfig({ servers: [] }, { ...options, origin: 'mcpConfig' })
    } catch (caught) {
      error = caught
    }
    expect(error).toMatchObject({ file: undefined, field: 'servers' })
  })
})

describe('the shorter forms other ports accept', () => {
  it('a bare map of servers is read as mcpServers', () => {
    const { servers } = parseMcpConfig(
      { github: { command: 'npx' }, search: { url: 'https://x.test/mcp' } },
      options,
    )
    expect(servers.map((server) => [server.name, server.kind])).toEqual([
      ['github', 'stdio'],
      ['search', 'remote'],
    ])
  })

  it('an object that is neither is still refused', () => {
    expect(() => parseMcpConfig({ github: 'npx' }, options)).toThrow(ConfigError)
  })

  it("the config's JSON text (a string starting with {) is parsed, not opened", async () => {
    const { servers } = await readMcpConfig('  { "mcpServers": { "github": { "command": "npx" } } } ', {
      cwd: dir,
    })
    expect(servers.map((server) => server.name)).toEqual(['github'])
    const error = await readMcpConfig('{ "mcpServers": ', { cwd: dir }).catch((caught: unknown) => caught)
    expect(ConfigError.isInstance(error)).toBe(true)
    expect((error as Error).message).toMatch(/^MCP config mcpConfig is not valid JSON/)
  })

  it('createToolkit loads a bare map, and JSON text, of a real server', async () => {
    const server = stdioServer()
    for (const mcpConfig of [{ fx: server } as never, JSON.stringify({ mcpServers: { fx: server } })]) {
      await using toolkit = await createToolkit({ mcpConfig, logger: { warn: () => {} } })
      expect(toolkit.mcpStatus()).toEqual({ fx: 'connected' })
      expect((await toolkit.execute('fx_echo', { text: 'hi' })).output).toBe('hi')
    }
  })
})

describe('what a connected server says', () => {
  it('an allow-list name the server lacks: the closest real name and the names it offers', async () => {
    const warnings: string[] = []
    await using toolkit = await createToolkit({
      mcpConfig: { mcpServers: { fx: { ...stdioServer(), tools: { ecoh: true } } } },
      logger: { warn: (message) => warnings.push(message) },
    })
    expect(toolkit.tools().filter((tool) => tool.source === 'mcp')).toEqual([])
    expect(warnings[0]).toMatch(
      /^MCP server "fx" has no tool "ecoh" \(named in its "tools"\)\. Did you mean "echo"\? It offers "echo", /,
    )
    expect(warnings[1]).toBe(
      'MCP server "fx" loads no tools: its "tools" allows none of the tools it offers.',
    )
  })

  it('logs at info: "connected <server>: <n> tools in <ms> ms"', async () => {
    const info: string[] = []
    const debug: string[] = []
    await using toolkit = await createToolkit({
      mcpConfig: { mcpServers: { fx: stdioServer() } },
      logger: {
        warn: () => {},
        info: (message) => info.push(message),
        debug: (message) => debug.push(message),
      },
    })
    const count = toolkit.tools().length
    expect(info).toHaveLength(1)
    expect(info[0]).toMatch(new RegExp(`^connected fx: ${count} tools in \\d+ ms over stdio$`))
    expect(debug).toEqual([`toolkit assembled: ${count} tools (mcp ${count})`])
  })
})
