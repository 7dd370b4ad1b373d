// Every runnable ```ts snippet of README.md and docs/*.md runs, as a reader would run it (tsx, its own
// Node process), to exit code 0 within a deadline: what it opens it closes, and it leaves no process
// behind. The models are scripted endpoints on loopback (OpenAI, Anthropic, Gemini) found through the
// providers' own environment variables; Redis and Postgres are real servers. A snippet that mentions
// `./mcp.json` or a skills folder runs in a folder that has them (an mcp.json of local fixture servers,
// the sample skill); every other snippet, the README's first among them, runs in an empty folder.
// A block that cannot run says why in its info string: ```ts norun="…".
import { type ChildProcess, spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findPostgresBin, findRedisServer } from '../support/database-binaries.js'
import { freePort } from '../support/free-port.js'
import { type PostgresServer, startPostgresServer } from '../support/postgres-server.js'
import { type RedisServer, startRedisServer } from '../support/redis-server.js'
import { startScriptedGemini } from '../support/scripted-gemini.js'
import { createGeminiPlanner } from '../support/scripted-gemini-planner.js'
import { startDocsModels } from './docs-model.js'
import { allSnippets, root, type Snippet } from './extract-snippets.js'

/** How long one snippet may take on a busy 2-core machine (Node start, tsx, MCP servers, the model). */
const DEADLINE_MS = 90_000
/** Snippets running at once. */
const AT_ONCE = 2

const snippets = allSnippets()
const runnable = snippets.filter((snippet) => snippet.attributes.norun === undefined)
const needsFolder = (snippet: Snippet) => /\.\/mcp\.json|skills/.test(snippet.code)
const needsRedis = runnable.some((snippet) => /toolnexus\/redis|REDIS_URL/.test(snippet.code))
const needsPostgres = runnable.some((snippet) => /toolnexus\/postgres|DATABASE_URL/.test(snippet.code))

const children = new Set<ChildProcess>()
const cleanups: Array<() => Promise<void> | void> = []
let env: Record<string, string> = {}
let snippetDir = ''
let folder = ''

/** Ends a snippet's whole process group (it runs detached, so its MCP servers are in it too). */
function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
  } catch {
    // already gone
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

process.once('exit', () => {
  for (const child of children) killGroup(child)
})

/** The folder the snippet files live in: `toolnexus` resolves to this repository's sources. */
function makeSnippetDir(): string {
  const cache = join(root, 'node_modules', '.cache')
  mkdirSync(cache, { recursive: true })
  const dir = mkdtempSync(join(cache, 'docs-run-'))
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
  const shim = join(dir, 'node_modules', 'toolnexus')
  mkdirSync(shim, { recursive: true })
  symlinkSync(join(root, 'src'), join(shim, 'src'))
  const entries = {
    '.': 'index',
    './next': 'next/index',
    './redis': 'redis/index',
    './postgres': 'postgres/index',
    './mcp-server': 'mcp-server/index',
    './dbos': 'dbos/index',
  }
  const exports = Object.fromEntries(Object.entries(entries).map(([key, file]) => [key, `./src/${file}.ts`]))
  writeFileSync(join(shim, 'package.json'), JSON.stringify({ name: 'toolnexus', type: 'module', exports }))
  return dir
}

/** The reader's project folder: an mcp.json of local servers (one refusing) and the sample skill. */
function makeFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolnexus-docs-'))
  const server = join(import.meta.dirname, 'fixtures', 'docs-mcp-server.mjs')
  const local = { command: process.execPath, args: [server] }
  const mcpServers = { github: local, search: { url: 'http://127.0.0.1:9/mcp', timeout: 5_000 } }
  writeFileSync(join(dir, 'mcp.json'), `${JSON.stringify({ mcpServers }, null, 2)}\n`)
  cpSync(join(root, 'examples', 'skills'), join(dir, 'skills'), { recursive: true })
  return dir
}

interface Outcome {
  code: number | null
  signal: NodeJS.Signals | null
  timedOut: boolean
  leftBehind: boolean
  output: string
}

async function runSnippet(snippet: Snippet, index: number): Promise<Outcome> {
  const file = join(snippetDir, `snippet-${index}.ts`)
  writeFileSync(file, `${snippet.code}\nexport {}\n`)
  const cwd = needsFolder(snippet) ? folder : mkdtempSync(join(tmpdir(), 'toolnexus-empty-'))
  const tsx = pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs')).href
  const child = spawn(process.execPath, ['--import', tsx, file], {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-6_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    killGroup(child)
  }, DEADLINE_MS)
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
  )
  clearTimeout(timer)
  // What the snippet started must be gone with it; the exit handlers get a few seconds to end it.
  let leftBehind = false
  for (let waited = 0; child.pid !== undefined && groupAlive(child.pid); waited += 100) {
    if (waited >= 10_000) {
      leftBehind = true
      killGroup(child)
      break
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  children.delete(child)
  if (cwd !== folder) rmSync(cwd, { recursive: true, force: true })
  return { code, signal, timedOut, leftBehind, output }
}

/** At most AT_ONCE snippets run at a time. */
let running = 0
const waiting: Array<() => void> = []
async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve))
  running++
  try {
    return await work()
  } finally {
    running--
    waiting.shift()?.()
  }
}

beforeAll(async () => {
  snippetDir = makeSnippetDir()
  cleanups.push(() => rmSync(snippetDir, { recursive: true, force: true }))
  folder = makeFolder()
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }))
  const models = await startDocsModels()
  cleanups.push(() => models.close())
  const gemini = await startScriptedGemini({ script: createGeminiPlanner() })
  cleanups.push(() => gemini.close())
  let redis: RedisServer | undefined
  if (needsRedis && findRedisServer().found) {
    redis = await startRedisServer()
    cleanups.push(() => redis?.stop())
  }
  let postgres: PostgresServer | undefined
  if (needsPostgres && findPostgresBin().found) {
    postgres = await startPostgresServer()
    cleanups.push(() => postgres?.stop())
  }
  env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    ...models.env,
    OPENAI_API_KEY: 'test-key',
    ANTHROPIC_API_KEY: 'test-key',
    GEMINI_API_KEY: 'test-key',
    GOOGLE_GEMINI_BASE_URL: gemini.baseUrl,
    PORT: String(await freePort()), // for a snippet that serves HTTP
    ...(redis === undefined ? {} : { REDIS_URL: redis.url }),
    ...(postgres === undefined ? {} : { DATABASE_URL: postgres.connectionString }),
  }
}, 180_000)

afterAll(async () => {
  for (const child of children) killGroup(child)
  for (const cleanup of cleanups.reverse()) await cleanup()
}, 60_000)

describe('documentation snippets run', () => {
  it('runs most blocks: the ones that cannot run are few and say why', () => {
    const skipped = snippets.filter((snippet) => snippet.attributes.norun !== undefined)
    expect(skipped.length).toBeLessThanOrEqual(Math.ceil(snippets.length / 8))
    for (const snippet of skipped) expect(snippet.attributes.norun?.length).toBeGreaterThan(10)
  })

  it("runs the README's first block in an empty folder", () => {
    const first = snippets.find((snippet) => snippet.page === 'README.md')
    expect(first === undefined ? undefined : runnable.includes(first) && !needsFolder(first)).toBe(true)
  })

  it.concurrent.each(runnable.map((snippet) => ({ snippet, name: `${snippet.page}:${snippet.line}` })))(
    '$name runs to its end and exits 0',
    { timeout: 20 * 60_000 },
    async ({ snippet }) => {
      if (needsRedis && env.REDIS_URL === undefined && /toolnexus\/redis|REDIS_URL/.test(snippet.code)) {
        if (process.env.CI) throw new Error('redis-server is needed in CI')
        console.warn(`[docs] ${snippet.page}:${snippet.line} skipped: redis-server is not installed`)
        return
      }
      const outcome = await withSlot(() => runSnippet(snippet, snippets.indexOf(snippet)))
      const where = `${snippet.page}:${snippet.line}`
      expect(outcome.timedOut, `${where} did not exit within ${DEADLINE_MS} ms:\n${outcome.output}`).toBe(
        false,
      )
      expect(outcome.code, `${where} failed:\n${outcome.output}`).toBe(0)
      expect(outcome.leftBehind, `${where} left processes running:\n${outcome.output}`).toBe(false)
    },
  )
})
