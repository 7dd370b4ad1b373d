// The `toolnexus` command as a user runs it: the built file, in a child process, against the example
// mcp.json (a real MCP server over stdio), the example skills and an HTTP spec.
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDist, removeDist } from '../support/build-dist.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
let dist: string
let scratch: string

beforeAll(async () => {
  dist = await buildDist()
  scratch = await mkdtemp(join(tmpdir(), 'toolnexus-cli-'))
}, 240_000)

afterAll(async () => {
  await removeDist(dist)
  await rm(scratch, { recursive: true, force: true })
})

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(dist, 'cli.js'), ...args],
      { cwd: root, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1
        resolve({ code, stdout, stderr })
      },
    )
  })
}

describe('toolnexus (the CLI)', () => {
  it('given --mcp /dev/urandom, says the config is not a file and exits instead of reading forever', async () => {
    const result = await run(['tools', '--mcp', '/dev/urandom'])
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain('MCP config /dev/urandom could not be read: it is not a regular file')
  })

  it('doctor --mcp examples/mcp.json --skills examples/skills prints the table and exits 0', async () => {
    const { code, stdout, stderr } = await run([
      'doctor',
      '--mcp',
      'examples/mcp.json',
      '--skills',
      'examples/skills',
    ])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^tool +gemini +openai +openai-strict +anthropic\n/)
    expect(stdout).toMatch(/^everything_echo +as is +as is +lowered +as is$/m)
    expect(stdout).toMatch(/^skill +/m)
    expect(stdout).toContain('every tool is accepted by gemini, openai, openai-strict, anthropic')
    expect(stderr).toMatch(/Connecting to 1 MCP server \(everything\)… [\d.]+s done: 1\/1 connected/)
  }, 90_000)

  it('doctor exits 1 when a tool would be refused by a provider asked for, and 0 for one that takes it', async () => {
    const spec = join(scratch, 'http.json')
    await writeFile(
      spec,
      JSON.stringify([
        {
          name: 'post_anything',
          description: 'Posts a free-form payload.',
          method: 'POST',
          url: 'http://127.0.0.1:9/anything',
          inputSchema: { type: 'object', properties: { payload: {} }, required: ['payload'] },
        },
      ]),
    )
    const strict = await run(['doctor', '--http', spec, '--provider', 'openai-strict'])
    expect(strict.code).toBe(1)
    expect(strict.stdout).toMatch(/^post_anything +REFUSED$/m)
    expect(strict.stdout).toContain(
      'post_anything · openai-strict · refused: the arguments.payload allows any value',
    )
    const gemini = await run(['doctor', '--http', spec, '--provider', 'gemini'])
    expect(gemini.code).toBe(0)
  }, 90_000)

  it('tools lists every tool with its source; status each MCP server', async () => {
    const tools = await run(['tools', '--mcp', 'examples/mcp.json', '--skills', 'examples/skills'])
    expect(tools.code).toBe(0)
    expect(tools.stdout).toMatch(/^everything_echo +mcp +Echoes back the input string$/m)
    expect(tools.stdout).toMatch(/^skill +skill +/m)
    const status = await run(['status', '--mcp', 'examples/mcp.json', '--json'])
    expect(status.code).toBe(0)
    expect(JSON.parse(status.stdout).everything.status).toBe('connected')
  }, 90_000)

  it("call <tool> '<json args>' runs the tool; a refused call exits 1", async () => {
    const ok = await run(['call', 'everything_echo', '{"message":"hi there"}', '--mcp', 'examples/mcp.json'])
    expect(ok.code).toBe(0)
    expect(ok.stdout).toContain('hi there')
    const bad = await run(['call', 'everything_echo', '{}', '--mcp', 'examples/mcp.json'])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('Invalid arguments for tool "everything_echo"')
  }, 90_000)

  it('answers a usage mistake with exit 2 and the usage', async () => {
    const { code, stderr } = await run(['frobnicate'])
    expect(code).toBe(2)
    expect(stderr).toContain('Unknown command "frobnicate"')
  })
})
