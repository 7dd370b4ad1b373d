import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { McpServerConfig } from '../../src/mcp/mcp-config.js'
import type { Logger } from '../../src/shared/logger.js'

/** The folder of the MCP test servers. */
export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'mcp')
export const STDIO_SERVER = join(FIXTURES, 'stdio-server.mjs')
export const PAGED_SERVER = join(FIXTURES, 'paged-server.mjs')

/** The stdio fixture server with these flags, in the Claude Desktop dialect. */
export function stdioServer(...flags: string[]): McpServerConfig {
  return { command: process.execPath, args: [STDIO_SERVER, ...flags] }
}

/** `@modelcontextprotocol/server-everything`'s entry point, started with `node` (never npx). */
export function everythingServerPath(): string {
  const require = createRequire(import.meta.url)
  return join(
    dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
    'dist',
    'index.js',
  )
}

/** A logger that keeps every line. */
export function recordingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = []
  return { logger: { warn: (message) => lines.push(message) }, lines }
}

/** True while a process with this id exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Ids of the running processes whose command line contains `marker`. */
export function processesWithMarker(marker: string): number[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
  return listing
    .split('\n')
    .filter((line) => line.includes(marker) && !line.includes('ps -eo'))
    .map((line) => Number.parseInt(line.trim(), 10))
    .filter((pid) => Number.isInteger(pid) && pid !== process.pid)
}

/** Resolves once `check` is true, polling; rejects after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
