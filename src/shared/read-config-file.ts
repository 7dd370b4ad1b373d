// Node only: imported by the MCP source and the CLI, never by the root entry.
import { readFile, stat } from 'node:fs/promises'

/** The most a config file (an `mcp.json`, an HTTP spec) may hold. */
const MAX_CONFIG_FILE_BYTES = 4 * 1024 * 1024
const CONFIG_READ_TIMEOUT_MS = 10_000

/**
 * A config file's text, read within bounds: it must be a regular file (not a device such as
 * `/dev/urandom`, a FIFO or a socket, which may never end), of at most `MAX_CONFIG_FILE_BYTES`, read
 * within 10 seconds. Rejects with an error saying which bound it broke (`code` `ENOENT` and the like
 * pass through from the file system).
 *
 * @example
 * const text = await readConfigFile('./mcp.json')
 */
export async function readConfigFile(path: string): Promise<string> {
  const info = await stat(path)
  if (!info.isFile()) {
    throw new Error('it is not a regular file (a device, FIFO or socket may never end)')
  }
  if (info.size > MAX_CONFIG_FILE_BYTES) {
    throw new Error(
      `it is larger than ${MAX_CONFIG_FILE_BYTES / 1024 / 1024} MB, the limit for a config file`,
    )
  }
  const text = await readFile(path, { encoding: 'utf8', signal: AbortSignal.timeout(CONFIG_READ_TIMEOUT_MS) })
  // It may have grown since `stat`.
  if (text.length > MAX_CONFIG_FILE_BYTES) {
    throw new Error(
      `it is larger than ${MAX_CONFIG_FILE_BYTES / 1024 / 1024} MB, the limit for a config file`,
    )
  }
  return text
}
