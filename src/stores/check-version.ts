import { ConfigError } from '../errors.js'

/**
 * Checks a save's `expectedVersion`: a whole number, 0 or more.
 *
 * @example
 * checkVersion(0)
 */
export function checkVersion(expectedVersion: unknown): void {
  if (typeof expectedVersion !== 'number' || !Number.isInteger(expectedVersion) || expectedVersion < 0) {
    throw new ConfigError(
      `save needs the version the conversation was loaded at (0 for a new one); got ${String(expectedVersion)}.`,
    )
  }
}
