// A real PostgreSQL cluster on a loopback port, made with initdb in a temp dir and run with pg_ctl by
// the test that needs it. As root (CI, this machine) it runs as the unprivileged `postgres` user the
// Debian package creates, since postgres refuses to run as root. Durability is off: test data only.
import { execFile, execFileSync } from 'node:child_process'
import { chownSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { findPostgresBin } from './database-binaries.js'
import { freePort } from './free-port.js'

const run = promisify(execFile)

/** A running PostgreSQL server. */
export interface PostgresServer {
  /** `postgres://toolnexus@127.0.0.1:<port>/postgres` (trust authentication on loopback). */
  connectionString: string
  port: number
  /** Stops the server (immediate shutdown) and removes its data dir. Safe to call twice. */
  stop(): Promise<void>
  /** Stops the server (fast shutdown) and keeps its data; `resume` starts it again on the same port. */
  halt(): Promise<void>
  resume(): Promise<void>
}

const running = new Set<() => void>()
process.once('exit', () => {
  for (const stopNow of running) stopNow()
})

/**
 * Makes a fresh cluster and starts it on a free 127.0.0.1 port; resolves once it accepts connections.
 *
 * @example
 * const postgres = await startPostgresServer()
 * try { ... createPostgresStore({ connectionString: postgres.connectionString }) ... } finally { await postgres.stop() }
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const lookup = findPostgresBin()
  if (!lookup.found) throw new Error(lookup.reason)
  const bin = lookup.path
  const dir = mkdtempSync(join(tmpdir(), 'toolnexus-postgres-'))
  const asRoot = process.getuid?.() === 0
  const user = asRoot ? postgresUser() : undefined
  if (user !== undefined) chownSync(dir, user.uid, user.gid)
  const as = (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args)
  const data = join(dir, 'data')
  await as(join(bin, 'initdb'), ['-D', data, '-U', 'toolnexus', '--auth=trust', '-E', 'UTF8', '--no-sync'])
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const settings = [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=50',
    ].join(' ')
    const pgCtl = join(bin, 'pg_ctl')
    const start = () =>
      as(pgCtl, ['-D', data, '-o', settings, '-l', join(dir, 'log'), '-w', '-t', '30', 'start'])
    try {
      await start()
    } catch (error) {
      if (attempt < 3) continue
      rmSync(dir, { recursive: true, force: true })
      throw error
    }
    let stopped = false
    const stopNow = () => {
      if (stopped) return
      stopped = true
      running.delete(stopNow)
      const args = ['-D', data, '-m', 'immediate', '-w', 'stop']
      try {
        if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', pgCtl, ...args], { stdio: 'ignore' })
        else execFileSync(pgCtl, args, { stdio: 'ignore' })
      } catch {
        // Already down.
      }
      rmSync(dir, { recursive: true, force: true })
    }
    running.add(stopNow)
    return {
      connectionString: `postgres://toolnexus@127.0.0.1:${port}/postgres`,
      port,
      stop: async () => stopNow(),
      halt: async () => {
        // Not immediate: with synchronous_commit off, a crash may lose the last commits.
        await as(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop'])
      },
      resume: async () => {
        await start()
      },
    }
  }
}

function postgresUser(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim())
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim())
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) {
    throw new Error('Running as root needs the `postgres` user (the Debian postgresql package makes it).')
  }
  return { uid, gid }
}
