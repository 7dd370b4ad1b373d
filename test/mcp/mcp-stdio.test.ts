import { randomUUID } from 'node:crypto'
import { relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ConfigError, createToolkit, type Toolkit } from '../../src/index.js'
import { TOOL_NAME_PATTERN } from '../../src/tool/names.js'
import type { ToolResult } from '../../src/tool/types.js'
import { FIXTURES, PAGED_SERVER, recordingLogger, STDIO_SERVER, stdioServer } from './mcp-fixtures.js'

const SECRET = `fixture-secret-${randomUUID()}`
const LONG = 'a_really_long_tool_name_that_keeps_going_and_going_well_past_the_limit'

describe('MCP stdio servers through createToolkit', () => {
  let toolkit: Toolkit
  const { logger, lines } = recordingLogger()
  const hostStderr: string[] = []
  const results: ToolResult[] = []

  async function run(name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
    const result = await toolkit.execute(name, args)
    results.push(result)
    return result
  }

  beforeAll(async () => {
    vi.stubEnv('TOOLNEXUS_TEST_SECRET', SECRET)
    const write = process.stderr.write.bind(process.stderr)
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk, ...rest) => {
      hostStderr.push(String(chunk))
      return write(chunk, ...(rest as []))
    })
    toolkit = await createToolkit({
      logger,
      mcpConfig: {
        mcpServers: {
          // Claude Desktop dialect; `node` found on PATH.
          claude: {
            command: 'node',
            args: [STDIO_SERVER],
            env: { FIXTURE_VALUE: '${TOOLNEXUS_TEST_SECRET}' },
          },
          paged: { command: process.execPath, args: [PAGED_SERVER, '--tools', '25', '--page-size', '10'] },
          promptsOnly: stdioServer('--no-tools'),
          nope: { command: 'toolnexus-no-such-command' },
          spaced: { command: 'toolnexus-no-such-command --with args' },
          badCwd: { command: 'node', cwd: 'no-such-folder' },
          off: { command: 'node', enabled: false },
          alsoOff: { command: 'node', disabled: true },
          missingVar: { command: 'node', env: { TOKEN: '${TOOLNEXUS_UNSET_VARIABLE}' } },
          failing: {
            ...stdioServer('--stderr-flood', '--fail-start'),
            env: { FIXTURE_SECRET: '${TOOLNEXUS_TEST_SECRET}' },
          },
        },
        mcp: {
          // opencode dialect, with an allowlist.
          opencode: {
            type: 'local',
            command: [process.execPath, STDIO_SERVER],
            environment: { FIXTURE_VALUE: 'from-environment' },
            tools: { echo: true, add: true, 'weird name/with.dots': true, 'not-offered': true },
          },
          // Also prints a line that is not JSON-RPC before it starts; that line is skipped.
          dropping: {
            type: 'stdio',
            command: [process.execPath, STDIO_SERVER, '--stdout-noise'],
            tools: { crash: false, slow: false },
          },
        },
      },
    })
  }, 60_000)

  afterAll(async () => {
    await toolkit?.close()
    vi.restoreAllMocks()
    vi.unstubAllEnvs()
  })

  it('reports every server: connected, failed with a reason, or disabled', () => {
    expect(toolkit.mcpStatus()).toStrictEqual({
      claude: 'connected',
      paged: 'connected',
      promptsOnly: 'connected',
      nope: 'failed',
      spaced: 'failed',
      badCwd: 'failed',
      off: 'disabled',
      alsoOff: 'disabled',
      missingVar: 'failed',
      failing: 'failed',
      opencode: 'connected',
      dropping: 'connected',
    })
    const servers = toolkit.mcpServers()
    expect(servers.claude?.transport).toBe('stdio')
    expect(servers.promptsOnly).toStrictEqual({ status: 'connected', tools: [], transport: 'stdio' })
    expect(servers.nope?.reason).toBe('command "toolnexus-no-such-command" was not found')
    expect(servers.spaced?.reason).toBe(
      'command "toolnexus-no-such-command --with args" was not found (to pass arguments, put them in "args" or make "command" an array)',
    )
    expect(servers.off).toStrictEqual({
      status: 'disabled',
      reason: 'disabled in the config ("enabled": false)',
      tools: [],
    })
    expect(servers.badCwd?.reason).toBe(`"cwd" ${process.cwd()}/no-such-folder is not an existing folder`)
    expect(servers.alsoOff?.reason).toBe('disabled in the config ("disabled": true)')
    expect(servers.missingVar?.reason).toBe(
      'environment variable "TOOLNEXUS_UNSET_VARIABLE" is not set (used in "env.TOKEN"); set it, or give a default ' +
        'with ${TOOLNEXUS_UNSET_VARIABLE:-default} (mcpServers.missingVar in mcpConfig)',
    )
  })

  it('explains a server that exits at start with its exit code and a bounded stderr tail, secrets masked', () => {
    const reason = toolkit.mcpServers().failing?.reason ?? ''
    expect(reason).toMatch(/^the process exited with code 3 before it finished initializing; stderr: …/)
    expect(reason).toContain('fixture refusing to start; token=***')
    expect(reason.length).toBeLessThan(800)
    // 2 MB of stderr was kept in the child's pipe, not poured into ours.
    expect(hostStderr.join('')).not.toContain('noise noise')
  })

  it('warns through the logger about each failed server and each allowlisted tool the server lacks', () => {
    expect(lines.filter((line) => line.startsWith('MCP server "nope" failed'))).toHaveLength(1)
    expect(lines).toContain(
      'MCP server "missingVar" was not started: environment variable "TOOLNEXUS_UNSET_VARIABLE" is not set (used in ' +
        '"env.TOKEN"); set it, or give a default with ${TOOLNEXUS_UNSET_VARIABLE:-default} (mcpServers.missingVar in mcpConfig).',
    )
    expect(lines.find((line) => line.startsWith('MCP server "opencode" has no tool'))).toMatch(
      /^MCP server "opencode" has no tool "not-offered" \(named in its "tools"\)\. It offers "echo", /,
    )
  })

  it('names tools <server>_<tool>, all valid, and honours the allow and drop lists', () => {
    const names = toolkit.tools().map((tool) => tool.name)
    for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN)
    expect(toolkit.mcpServers().opencode?.tools).toStrictEqual([
      'opencode_echo',
      'opencode_add',
      'opencode_weird_name_with_dots',
    ])
    const dropping = toolkit.mcpServers().dropping?.tools ?? []
    expect(dropping).toContain('dropping_echo')
    expect(dropping).not.toContain('dropping_crash')
    expect(dropping).not.toContain('dropping_slow')
    expect(toolkit.tools().every((tool) => tool.source === 'mcp')).toBe(true)
  })

  it('takes each input schema from the server, always with an object root', () => {
    expect(toolkit.get('claude_echo')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    })
    expect(toolkit.get('claude_image')?.inputSchema).toMatchObject({ type: 'object', properties: {} })
    expect(toolkit.get('claude_echo')?.description).toBe('Echoes the text back.')
  })

  it('calls tools of both dialects', async () => {
    expect(await run('claude_echo', { text: 'hello' })).toMatchObject({ output: 'hello', isError: false })
    expect(await run('opencode_echo', { text: 'hi there' })).toMatchObject({
      output: 'hi there',
      isError: false,
    })
  })

  it('validates arguments before the server sees them', async () => {
    const result = await run('claude_echo', { text: 42 })
    expect(result.isError).toBe(true)
    expect(result.output).toContain('Invalid arguments for tool "claude_echo"')
    expect((await run('claude_calls')).output).toBe('2')
  })

  it('maps structuredContent to its JSON text', async () => {
    const result = await run('claude_add', { a: 2, b: 40 })
    expect(result).toMatchObject({ output: '{"sum":42}', isError: false })
    expect(result.metadata).toMatchObject({ server: 'claude', tool: 'add', structuredContent: { sum: 42 } })
  })

  it('summarizes images, audio and resources instead of dropping them, keeping the raw content', async () => {
    const image = await run('claude_image')
    expect(image.output).toBe('a tiny picture\n[image: image/png, 68 bytes]')
    expect(image.metadata?.content).toMatchObject([
      { type: 'text' },
      { type: 'image', mimeType: 'image/png' },
    ])
    expect((await run('claude_mixed')).output).toBe(
      [
        '[audio: audio/wav, 6 bytes]',
        '[resource link: file:///notes.txt (notes, text/plain)]',
        '[resource: memo://one]',
        'memo text',
        '[resource: blob://two, application/octet-stream, 3 bytes]',
      ].join('\n'),
    )
  })

  it('maps isError results, and a handler that throws, to error results', async () => {
    expect(await run('claude_fail', { message: 'bad input' })).toMatchObject({
      output: 'bad input',
      isError: true,
    })
    expect(await run('claude_throws')).toMatchObject({ output: 'kaboom from the handler', isError: true })
  })

  it('round-trips sanitized and shortened names to the right server tool', async () => {
    expect((await run('claude_weird_name_with_dots')).output).toBe('weird tool ran')
    expect((await run('opencode_weird_name_with_dots')).output).toBe('weird tool ran')
    const long = toolkit.tools().filter((tool) => tool.name.startsWith('claude_a_really_long'))
    expect(long).toHaveLength(2)
    for (const tool of long) expect(tool.name).toHaveLength(64)
    const outputs = await Promise.all(long.map(async (tool) => (await run(tool.name)).output))
    expect(outputs.sort()).toStrictEqual(['long tool one ran', 'long tool two ran'])
    expect(long.map((tool) => tool.description).sort()).toStrictEqual([
      'A long name (one).',
      'A long name (two).',
    ])
    expect(LONG.length + 'claude_'.length).toBeGreaterThan(64)
  })

  it('follows nextCursor through every page of tools/list', async () => {
    const paged = toolkit.mcpServers().paged?.tools ?? []
    expect(paged).toHaveLength(25)
    expect(paged[0]).toBe('paged_tool_000')
    expect(paged[24]).toBe('paged_tool_024')
    // Three pages of ten were listed before the call.
    expect((await run('paged_tool_024')).output).toBe('tool_024 ran (list requests: 3)')
  })

  it('gives a local server the process environment plus its own, ${VAR} expanded', async () => {
    // The configured values arrive ('***', not '(unset)'), and results show them masked, as every result is.
    expect((await run('claude_env', { name: 'FIXTURE_VALUE' })).output).toBe('***')
    expect((await run('claude_env', { name: 'PATH' })).output).toBe(process.env.PATH)
    expect((await run('claude_env', { name: 'TOOLNEXUS_TEST_SECRET' })).output).toBe('***')
    expect((await run('dropping_env', { name: 'FIXTURE_VALUE' })).output).toBe('(unset)')
  })

  it('never shows a secret in a log line, a status or an error result', () => {
    const errors = results.filter((result) => result.isError).map((result) => result.output)
    const shown = [...lines, JSON.stringify(toolkit.mcpServers()), ...errors, ...toolkit.warnings()].join(
      '\n',
    )
    expect(shown).not.toContain(SECRET)
  })
})

describe('an mcp.json file given by a relative path', () => {
  it('resolves the file against the working directory, and its command and cwd against the file', async () => {
    const path = relative(process.cwd(), `${FIXTURES}/relative.mcp.json`)
    expect(path.startsWith('/')).toBe(false)
    await using toolkit = await createToolkit({ mcpConfig: path, logger: recordingLogger().logger })
    expect(toolkit.mcpStatus()).toStrictEqual({ relative: 'connected' })
    expect((await toolkit.execute('relative_cwd', {})).output).toBe(FIXTURES)
  }, 30_000)

  it('fails fast with a ConfigError when the file is missing or the config has the wrong shape', async () => {
    const missing = createToolkit({ mcpConfig: 'no-such-dir/mcp.json' })
    await expect(missing).rejects.toSatisfy((error) => ConfigError.isInstance(error))
    await expect(missing).rejects.toThrow(/no-such-dir\/mcp\.json was not found/)
    // A config parsed from JSON can have any shape.
    await expect(createToolkit({ mcpConfig: JSON.parse('{ "mcpServers": "nope" }') })).rejects.toThrow(
      'MCP config mcpConfig: "mcpServers" must be an object mapping server names to their settings; got a string.',
    )
  })
})
