import { ConfigError } from '../errors.js'

/**
 * Reads a store's `ttlSeconds` option into milliseconds (`undefined`: no expiry).
 *
 * @example
 * readTtlSeconds(3600, 'createRedisStore') // 3_600_000
 */
export function readTtlSeconds(ttlSeconds: unknown, owner: string): number | undefined {
  if (ttlSeconds === undefined) return undefined
  if (typeof ttlSeconds !== 'number' || !Number.isInteger(ttlSeconds) || ttlSeconds < 1) {
    throw new ConfigError(
      `${owner}: \`ttlSeconds\` must be a whole number of seconds, 1 or more (or left out for no expiry); got ${String(ttlSeconds)}.`,
    )
  }
  return ttlSeconds * 1000
}
