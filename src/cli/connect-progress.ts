// What the CLI says on stderr while MCP servers connect: on a terminal, one line that updates in place;
// anywhere else (CI logs, a pipe), one line per event.
import { parseJsonWithComments } from '../mcp/parse-json-with-comments.js'
import { readConfigFile } from '../shared/read-config-file.js'

/** The progress of one connect: `done` once it finished, `fail` when it threw. */
export interface ConnectProgress {
  done(connected: number, total: number): void
  fail(): void
}

/**
 * Starts saying that the servers of `mcpFile` connect. The file is read as createToolkit reads it
 * (comments and trailing commas allowed); a file it cannot read is left for createToolkit to report, and
 * nothing is said until then.
 *
 * @example
 * const progress = await startConnectProgress('mcp.json', process.stderr)
 * progress.done(2, 2)
 */
export async function startConnectProgress(
  mcpFile: string,
  stream: NodeJS.WriteStream,
): Promise<ConnectProgress> {
  const servers = await serverNames(mcpFile)
  if (servers === undefined) return { done: () => {}, fail: () => {} }
  const started = Date.now()
  const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)}s`
  const plural = (count: number) => `MCP server${count === 1 ? '' : 's'}`
  const opening = `Connecting to ${servers.length} ${plural(servers.length)}${servers.length === 0 ? '' : ` (${servers.join(', ')})`}…`
  if (stream.isTTY !== true) {
    stream.write(`${opening}\n`)
    return {
      done: (connected, total) =>
        stream.write(`Connected ${connected}/${total} ${plural(total)} in ${seconds()}\n`),
      fail: () => {},
    }
  }
  const line = () => `\r${opening} ${seconds()}`
  stream.write(line())
  const timer = setInterval(() => stream.write(line()), 250)
  return {
    done: (connected, total) => {
      clearInterval(timer)
      stream.write(`${line()} done: ${connected}/${total} connected\n`)
    },
    // The error that follows starts on a line of its own.
    fail: () => {
      clearInterval(timer)
      stream.write('\n')
    },
  }
}

async function serverNames(file: string): Promise<string[] | undefined> {
  try {
    const config = parseJsonWithComments(await readConfigFile(file)) as { mcpServers?: unknown }
    const servers = config?.mcpServers
    return typeof servers === 'object' && servers !== null ? Object.keys(servers) : undefined
  } catch {
    return undefined
  }
}
