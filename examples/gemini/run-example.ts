// What the three seed examples share: their checks, and running as a script.
import { pathToFileURL } from 'node:url'

/** Throws `message` unless `condition` holds. */
export function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message)
}

/** True for a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Runs `main` when the module at `moduleUrl` is the script Node was started with: prints its `ok:` line,
 * or the error and exit code 1. Imported (as the tests do), it runs nothing.
 *
 * @example
 * runIfScript(import.meta.url, main)
 */
export function runIfScript(moduleUrl: string, main: () => Promise<string>): void {
  if (process.argv[1] === undefined || moduleUrl !== pathToFileURL(process.argv[1]).href) return
  main().then(
    (line) => console.log(line),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error)
      process.exitCode = 1
    },
  )
}
