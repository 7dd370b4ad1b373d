import { generateKeyPairSync } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/errors.js'
import type { McpServerPlan, ParseMcpConfigOptions } from '../../src/mcp/mcp-server-plan.js'
import { parseMcpConfig } from '../../src/mcp/parse-mcp-config.js'
import { readMcpConfig } from '../../src/mcp/read-mcp-config.js'

const SECRET = 'tok-3f9a8b7c6d5e'
const options: ParseMcpConfigOptions = {
  origin: '/configs/mcp.json',
  baseDir: '/configs',
  env: { API_TOKEN: SECRET, EMPTY: '', PORT: '8080' },
}

function only(config: unknown): McpServerPlan {
  const { servers } = parseMcpConfig(config, options)
  expect(servers).toHaveLength(1)
  return servers[0]!
}

function reasonOf(plan: McpServerPlan): string {
  if (plan.kind !== 'invalid') throw new Error(`expected an invalid plan, got ${plan.kind}`)
  return plan.reason
}

describe('parseMcpConfig: dialects', () => {
  it('reads the Claude Desktop dialect: command + args + env, with ${VAR} expanded', () => {
    const plan = only({
      mcpServers: {
        github: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-github'],
          env: { GITHUB_TOKEN: '${API_TOKEN}', PORT: 3000 },
        },
      },
    })
    expect(plan).toStrictEqual({
      kind: 'stdio',
      name: 'github',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_TOKEN: SECRET, PORT: '3000' },
      cwd: undefined,
      timeoutMs: 30_000,
      protocolVersion: 'auto',
      tools: { allow: undefined, drop: new Set() },
      secrets: [SECRET, SECRET],
    })
  })

  it('reads the opencode dialect: command array + environment, type local, extra args appended', () => {
    const plan = only({
      mcp: {
        files: {
          type: 'local',
          command: ['node', 'server.mjs', '--flag'],
          args: ['--more'],
          environment: { A: 'from-environment', B: 'kept' },
          env: { A: 'from-env' },
          enabled: true,
          timeout: 5000,
        },
      },
    })
    expect(plan).toMatchObject({
      kind: 'stdio',
      command: 'node',
      args: ['server.mjs', '--flag', '--more'],
      env: { A: 'from-env', B: 'kept' },
      timeoutMs: 5000,
    })
  })

  it('reads a remote server with headers, expanding ${VAR}, ${env:VAR} and ${VAR:-default}', () => {
    const plan = only({
      servers: {
        remote: {
          type: 'http',
          url: 'https://mcp.example.com/mcp?port=${PORT}',
          headers: {
            Authorization: 'Bearer ${API_TOKEN}',
            'X-Env': '${env:API_TOKEN}',
            'X-Default': '${UNSET_VAR:-fallback}',
            'X-Empty': '${EMPTY:-was-empty}',
          },
        },
      },
    })
    if (plan.kind !== 'remote') throw new Error(plan.kind)
    expect(plan.url.href).toBe('https://mcp.example.com/mcp?port=8080')
    expect(plan.protocol).toBe('streamable-http')
    expect(plan.headers).toStrictEqual({
      Authorization: `Bearer ${SECRET}`,
      'X-Env': SECRET,
      'X-Default': 'fallback',
      'X-Empty': 'was-empty',
    })
    expect(plan.secrets).toContain(SECRET)
    expect(plan.secrets).toContain(`Bearer ${SECRET}`)
  })

  it.each([
    ['local', { command: 'x' }, 'stdio'],
    ['stdio', { command: 'x' }, 'stdio'],
    ['remote', { url: 'http://127.0.0.1/mcp' }, 'streamable-http'],
    ['http', { url: 'http://127.0.0.1/mcp' }, 'streamable-http'],
    ['streamable-http', { url: 'http://127.0.0.1/mcp' }, 'streamable-http'],
    ['streamable_http', { url: 'http://127.0.0.1/mcp' }, 'streamable-http'],
    ['sse', { url: 'http://127.0.0.1/sse' }, 'sse'],
    [undefined, { command: 'x' }, 'stdio'],
    [undefined, { url: 'http://127.0.0.1/mcp' }, 'streamable-http'],
  ])('type %s reaches the server by %s', (type, fields, expected) => {
    const plan = only({ mcpServers: { one: { ...fields, ...(type !== undefined && { type }) } } })
    const reached = plan.kind === 'remote' ? plan.protocol : plan.kind
    expect(reached).toBe(expected)
  })

  it.each([
    [undefined, 'auto'],
    ['auto', 'auto'],
    ['2025-11-25', '2025-11-25'],
    ['2026-07-28', '2026-07-28'],
  ])('protocol %s pins the era %s, for local and remote servers alike', (protocol, expected) => {
    const entry = protocol === undefined ? {} : { protocol }
    const { servers } = parseMcpConfig(
      {
        mcpServers: { local: { command: 'x', ...entry }, remote: { url: 'http://127.0.0.1/mcp', ...entry } },
      },
      options,
    )
    expect(
      servers.map((plan) =>
        plan.kind === 'invalid' ? plan.reason : plan.kind === 'disabled' ? '' : plan.protocolVersion,
      ),
    ).toStrictEqual([expected, expected])
  })

  it('reads taskWaitMs for local and remote servers, and leaves it out when unset', () => {
    const { servers } = parseMcpConfig(
      {
        mcpServers: {
          local: { command: 'x', taskWaitMs: 2000 },
          remote: { url: 'http://127.0.0.1/mcp', taskWaitMs: 500 },
          plain: { command: 'x' },
        },
      },
      options,
    )
    expect(servers.map((plan) => ('taskWaitMs' in plan ? plan.taskWaitMs : 'unset'))).toStrictEqual([
      2000,
      500,
      'unset',
    ])
  })

  it('reads servers from every section, the first of a duplicate name winning with a warning', () => {
    const { servers, warnings } = parseMcpConfig(
      {
        mcpServers: { a: { command: 'one' } },
        servers: { a: { command: 'two' }, b: { command: 'three' } },
        mcp: { c: { command: ['four'] } },
        $schema: 'https://opencode.ai/config.json',
      },
      options,
    )
    expect(
      servers.map((plan) => [plan.name, plan.kind === 'stdio' ? plan.command : plan.kind]),
    ).toStrictEqual([
      ['a', 'one'],
      ['b', 'three'],
      ['c', 'four'],
    ])
    expect(warnings).toStrictEqual([
      'MCP server "a" appears under both "mcpServers" and "servers" in /configs/mcp.json: kept the one under "mcpServers".',
    ])
  })
})

describe('parseMcpConfig: paths, switches and filters', () => {
  it('resolves a relative command and cwd against the config folder, and leaves a bare command to PATH', () => {
    const { servers } = parseMcpConfig(
      {
        mcpServers: {
          relative: { command: './bin/server', cwd: 'work' },
          nested: { command: 'tools/server.sh' },
          bare: { command: 'node' },
          absolute: { command: '/usr/bin/env', cwd: '/tmp' },
        },
      },
      options,
    )
    expect(
      servers.map((plan) => (plan.kind === 'stdio' ? [plan.command, plan.cwd] : plan.kind)),
    ).toStrictEqual([
      [resolve('/configs/bin/server'), resolve('/configs/work')],
      [resolve('/configs/tools/server.sh'), undefined],
      ['node', undefined],
      ['/usr/bin/env', '/tmp'],
    ])
  })

  it('skips a server with enabled: false or disabled: true, without checking the rest of it', () => {
    const { servers } = parseMcpConfig(
      {
        mcpServers: {
          off: { enabled: false, command: 42 },
          alsoOff: { disabled: true },
          on: { enabled: true, disabled: false, command: 'x' },
        },
      },
      options,
    )
    expect(
      servers.map((plan) => [plan.name, plan.kind, plan.kind === 'disabled' ? plan.reason : '']),
    ).toStrictEqual([
      ['off', 'disabled', 'disabled in the config ("enabled": false)'],
      ['alsoOff', 'disabled', 'disabled in the config ("disabled": true)'],
      ['on', 'stdio', ''],
    ])
  })

  it('keeps keys such as __proto__ as plain keys', () => {
    const plan = only(
      JSON.parse('{ "mcpServers": { "s": { "command": "x", "env": { "__proto__": "kept" } } } }'),
    )
    expect(plan.kind === 'stdio' && Object.entries(plan.env)).toStrictEqual([['__proto__', 'kept']])
  })

  it('turns the tools map into an allowlist (any true) and a droplist (false)', () => {
    const allow = only({
      mcpServers: { s: { command: 'x', tools: { echo: true, add: true, image: false } } },
    })
    const drop = only({ mcpServers: { s: { command: 'x', tools: { crash: false } } } })
    expect(allow.kind === 'stdio' && allow.tools).toStrictEqual({
      allow: new Set(['echo', 'add']),
      drop: new Set(['image']),
    })
    expect(drop.kind === 'stdio' && drop.tools).toStrictEqual({ allow: undefined, drop: new Set(['crash']) })
  })
})

describe('parseMcpConfig: a bad server entry fails only that server', () => {
  it.each([
    ['not an object', 'nope', 'must be an object with "command" or "url"; got a string'],
    ['no command or url', {}, 'needs "command" (a local server) or "url" (a remote server)'],
    ['both command and url', { command: 'x', url: 'http://h' }, 'has both "command" and "url"'],
    ['an unknown type', { type: 'carrier-pigeon', command: 'x' }, '"type" must be one of "local"'],
    ['a numeric command', { command: 42 }, '"command" must be a program name'],
    ['an empty command array', { command: [] }, '"command" must be a program name'],
    [
      'args not an array',
      { command: 'x', args: '--flag' },
      '"args" must be an array of strings; got a string',
    ],
    ['an object in args', { command: 'x', args: [{}] }, '"args[0]" must be a string; got an object'],
    ['env not an object', { command: 'x', env: ['A=1'] }, '"env" must be an object of string values'],
    ['an object env value', { command: 'x', env: { A: {} } }, '"env.A" must be a string; got an object'],
    [
      'a negative timeout',
      { command: 'x', timeout: -1 },
      '"timeout" must be a positive number of milliseconds',
    ],
    ['a string timeout', { command: 'x', timeout: '30s' }, '"timeout" must be a positive number'],
    [
      'an unknown protocol',
      { url: 'http://127.0.0.1/mcp', protocol: '2026' },
      '"protocol" must be one of "auto", "2025-11-25", "2026-07-28"; got "2026"',
    ],
    ['a numeric protocol', { command: 'x', protocol: 2026 }, '"protocol" must be one of "auto"'],
    [
      'a string taskWaitMs',
      { command: 'x', taskWaitMs: '5s' },
      '"taskWaitMs" must be a positive whole number of milliseconds',
    ],
    ['a zero taskWaitMs', { command: 'x', taskWaitMs: 0 }, 'suspends); got number 0'],
    [
      'a fractional taskWaitMs',
      { url: 'http://127.0.0.1/mcp', taskWaitMs: 1.5 },
      '"taskWaitMs" must be a positive whole number',
    ],
    ['a non-boolean tools map', { command: 'x', tools: { echo: 'yes' } }, '"tools" must map'],
    ['a string enabled', { command: 'x', enabled: 'false' }, '"enabled" must be true or false'],
    ['remote without url', { type: 'remote' }, '"type": "remote" needs a "url"'],
    ['a url that is not http', { url: 'ftp://host/x' }, '"url" must be an absolute http:// or https:// URL'],
    ['a relative url', { url: '/mcp' }, '"url" must be an absolute http:// or https:// URL'],
  ])('%s', (_, entry, expected) => {
    const { servers } = parseMcpConfig({ mcpServers: { bad: entry, good: { command: 'ok' } } }, options)
    const [bad, good] = servers
    const reason = reasonOf(bad!)
    expect(reason).toContain(expected)
    expect(reason).toContain('(mcpServers.bad in /configs/mcp.json)')
    expect(good?.kind).toBe('stdio')
  })

  it('names a missing variable, and the field it was used in, never a value', () => {
    const plan = only({
      mcpServers: {
        s: { url: 'https://h/mcp', headers: { 'X-Known': '${API_TOKEN}', 'X-Key': '${MISSING_KEY}' } },
      },
    })
    expect(reasonOf(plan)).toBe(
      'environment variable "MISSING_KEY" is not set (used in "headers.X-Key"); set it, or give a default with ' +
        '${MISSING_KEY:-default} (mcpServers.s in /configs/mcp.json)',
    )
    expect(reasonOf(plan)).not.toContain(SECRET)
  })

  it('rejects a placeholder it cannot expand, such as VS Code input variables', () => {
    const plan = only({ servers: { s: { command: 'x', env: { TOKEN: '${input:token}' } } } })
    expect(reasonOf(plan)).toContain('"env.TOKEN" uses ${input:token}, which cannot be expanded')
  })

  it('never shows a string value that may be a secret in a reason', () => {
    const plan = only({ mcpServers: { s: { url: `not a url ${SECRET}` } } })
    expect(reasonOf(plan)).not.toContain(SECRET)
  })
})

describe('parseMcpConfig: a config of the wrong shape throws a ConfigError', () => {
  it.each([
    [
      [],
      'MCP config /configs/mcp.json must be a JSON object with "mcpServers" (or "servers", or "mcp"); got an array.',
    ],
    [
      null,
      'MCP config /configs/mcp.json must be a JSON object with "mcpServers" (or "servers", or "mcp"); got null.',
    ],
    [
      { everything: { comand: 'x' } },
      'MCP config /configs/mcp.json has no servers: put them under "mcpServers": { "<name>": { "command": ... } } (also accepted: "servers", "mcp").',
    ],
    [
      { mcpServers: ['x'] },
      'MCP config /configs/mcp.json: "mcpServers" must be an object mapping server names to their settings; got an array.',
    ],
  ])('%j', (config, message) => {
    let thrown: unknown
    try {
      parseMcpConfig(config, options)
    } catch (error) {
      thrown = error
    }
    expect(ConfigError.isInstance(thrown)).toBe(true)
    expect((thrown as Error).message).toBe(message)
  })
})

describe('readMcpConfig', () => {
  let folder: string

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolnexus-mcp-config-'))
  })

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true })
  })

  it('resolves a relative config path against the working directory, and commands against the file', async () => {
    await writeFile(
      join(folder, 'mcp.json'),
      JSON.stringify({ mcpServers: { s: { command: './server.sh' } } }),
    )
    const { servers } = await readMcpConfig('mcp.json', { cwd: folder })
    expect(servers[0]).toMatchObject({ kind: 'stdio', command: join(folder, 'server.sh') })
  })

  it('accepts comments and trailing commas (VS Code and opencode allow them)', async () => {
    const text = `{
      // the servers
      "servers": {
        /* a local one */ "s": { "command": "node", "args": ["a // not a comment", "b,]"], },
      },
    }`
    await writeFile(join(folder, 'commented.json'), text)
    const { servers } = await readMcpConfig(join(folder, 'commented.json'))
    expect(servers[0]).toMatchObject({ kind: 'stdio', args: ['a // not a comment', 'b,]'] })
  })

  it('says which file was not found and how it was resolved', async () => {
    await expect(readMcpConfig('missing.json', { cwd: folder })).rejects.toThrow(
      `MCP config ${join(folder, 'missing.json')} was not found (resolved against the working directory ${folder}). ` +
        'Pass the path of an existing mcp.json as mcpConfig, or the parsed object.',
    )
  })

  it('says where malformed JSON breaks', async () => {
    await writeFile(
      join(folder, 'broken.json'),
      '{\n  "mcpServers": {\n    "s": { "command": "x" }}\n  oops\n}',
    )
    const failure = readMcpConfig(join(folder, 'broken.json'))
    await expect(failure).rejects.toSatisfy((error) => ConfigError.isInstance(error))
    await expect(failure).rejects.toThrow(
      new RegExp(
        `^MCP config ${join(folder, 'broken.json')} is not valid JSON at line 4, column 3: .+Fix the file's syntax\\.$`,
      ),
    )
  })
})

describe('parseMcpConfig: auth with a signing key', () => {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()
  const remote = (auth: Record<string, unknown>) => ({
    mcpServers: { svc: { url: 'https://mcp.example.com/mcp', auth } },
  })
  const cc = { grant: 'client_credentials', clientId: 'svc' }

  it('reads a PEM into a JWK with the algorithm the key signs with, and keeps the key as a secret', () => {
    const plan = only(remote({ ...cc, privateKey: pem }))
    if (plan.kind !== 'remote') throw new Error(plan.kind)
    expect(plan.auth?.signingKey?.algorithm).toBe('ES256')
    expect(plan.auth?.signingKey?.jwk.kty).toBe('EC')
    expect(plan.secrets).toContain(pem)
    expect(plan.secrets).toContain(plan.auth?.signingKey?.jwk.d)
  })

  it.each([
    [
      'a key that is not one',
      { ...cc, privateKey: 'not-a-key-at-all' },
      '"auth.privateKey" is not a private key',
    ],
    ['an algorithm the key cannot sign with', { ...cc, privateKey: pem, algorithm: 'RS256' }, 'use "ES256"'],
    ['both a secret and a key', { ...cc, privateKey: pem, clientSecret: 'x' }, 'not both'],
    ['a key with the code flow', { privateKey: pem }, 'needs "grant": "client_credentials"'],
    ['an algorithm without a key', { ...cc, clientSecret: 'x', algorithm: 'ES256' }, 'which is missing'],
  ])('%s is a config problem named at load, without the key', (_, auth, hint) => {
    const reason = reasonOf(only(remote(auth)))
    expect(reason).toContain(hint)
    for (const line of pem.split('\n').filter((each) => each.length > 20 && !each.startsWith('-')))
      expect(reason).not.toContain(line)
  })
})
