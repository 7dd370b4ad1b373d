// Finding the Debian database binaries the store tests start. Outside CI a missing binary skips those
// tests with a loud message; in CI (`CI` set) it fails them, because CI must have installed it.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** Where a database's binaries are, or why they are not here. */
export type BinaryLookup = { found: true; path: string } | { found: false; reason: string }

/** `redis-server` on the PATH or in /usr/bin. */
export function findRedisServer(): BinaryLookup {
  const candidates = [
    ...(process.env.PATH ?? '')
      .split(':')
      .filter(Boolean)
      .map((dir) => join(dir, 'redis-server')),
    '/usr/bin/redis-server',
  ]
  const path = candidates.find((candidate) => existsSync(candidate))
  return path === undefined
    ? { found: false, reason: 'redis-server is not installed (Debian: apt-get install -y redis-server)' }
    : { found: true, path }
}

/** The newest /usr/lib/postgresql/<major>/bin that has initdb, pg_ctl and postgres. */
export function findPostgresBin(): BinaryLookup {
  const root = '/usr/lib/postgresql'
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name))
        .sort((left, right) => Number(right) - Number(left))
    : []
  for (const major of majors) {
    const bin = join(root, major, 'bin')
    if (['initdb', 'pg_ctl', 'postgres'].every((name) => existsSync(join(bin, name)))) {
      return { found: true, path: bin }
    }
  }
  return {
    found: false,
    reason: 'PostgreSQL is not installed (Debian: apt-get install -y postgresql)',
  }
}

/**
 * True when tests needing this binary should run. When it is missing: in CI this throws (the suite
 * fails); elsewhere it prints a loud warning and the caller skips.
 */
export function requireBinary(lookup: BinaryLookup, what: string): lookup is { found: true; path: string } {
  if (lookup.found) return true
  if (process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false') {
    throw new Error(`${what}: ${lookup.reason}, and CI must run these tests. .ci/run installs it.`)
  }
  console.warn(
    `\n${'!'.repeat(78)}\n!! SKIPPING ${what}: ${lookup.reason}.\n!! In CI this fails; .ci/run installs it.\n${'!'.repeat(78)}\n`,
  )
  return false
}
