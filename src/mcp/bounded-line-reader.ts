import { deserializeMessage, type JSONRPCMessage } from '@modelcontextprotocol/client'

/** The largest message read from an MCP server's stdout, in bytes (the MCP SDK's own limit: 10 MB). */
export const MAX_MCP_MESSAGE_BYTES = 10 * 1024 * 1024

// Bytes kept from each end of a line that is too long, to find which request it answers.
const EDGE_BYTES = 512

/**
 * The error a request gets when the server's answer to it is over the limit (its size, when known).
 *
 * @example
 * tooLargeMessage(50 * 1024 * 1024) // "the server's answer is too large (50 MB; the limit for one MCP message is 10 MB)"
 */
export function tooLargeMessage(bytes: number | undefined, limit = MAX_MCP_MESSAGE_BYTES): string {
  const size = bytes === undefined ? `over ${megabytes(limit)}` : megabytes(bytes)
  return `the server's answer is too large (${size} MB; the limit for one MCP message is ${megabytes(limit)} MB)`
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')
}

/** What one line of a server's stdout turned out to be. */
export type ReadLine =
  | { kind: 'message'; message: JSONRPCMessage }
  | { kind: 'invalid'; error: Error }
  | { kind: 'too-large'; bytes: number; id: string | number | undefined }

/**
 * Bytes held up to `limit`; past it, only the size and the first and last bytes are kept (enough to find
 * the id of the request a JSON-RPC message answers), so memory stays near the limit however much comes.
 *
 * @example
 * const held = new BoundedBytes(10)
 * held.push(Buffer.from('a long message'))
 * held.take() // { kind: 'too-large', bytes: 14, head, tail }
 */
export class BoundedBytes {
  readonly #limit: number
  #chunks: Buffer[] = []
  #length = 0
  // Once over the limit: the size so far, the first bytes and the last bytes.
  #skipping: { bytes: number; head: Buffer; tail: Buffer } | undefined

  constructor(limit = MAX_MCP_MESSAGE_BYTES) {
    this.#limit = limit
  }

  /** Whether nothing is held. */
  get empty(): boolean {
    return this.#skipping === undefined && this.#length === 0
  }

  push(piece: Buffer): void {
    if (piece.length === 0) return
    if (this.#skipping !== undefined) {
      this.#skipping.bytes += piece.length
      const skipping = this.#skipping
      skipping.tail =
        piece.length >= EDGE_BYTES ? lastBytes(piece) : lastBytes(Buffer.concat([skipping.tail, piece]))
      return
    }
    if (this.#length + piece.length <= this.#limit) {
      this.#chunks.push(piece)
      this.#length += piece.length
      return
    }
    // Over the limit: keep only the ends from now on.
    const held = Buffer.concat([...this.#chunks, piece])
    // Copies of the ends, so that the held bytes can be collected.
    this.#skipping = {
      bytes: held.length,
      head: Buffer.from(held.subarray(0, EDGE_BYTES)),
      tail: lastBytes(held),
    }
    this.#chunks = []
    this.#length = 0
  }

  /** What was held, whole or as the size and ends of what was too large; then holds nothing. */
  take(): SplitLine {
    const skipped = this.#skipping
    const chunks = this.#chunks
    this.#skipping = undefined
    this.#chunks = []
    this.#length = 0
    return skipped === undefined
      ? { kind: 'line', bytes: Buffer.concat(chunks) }
      : { kind: 'too-large', ...skipped }
  }
}

/**
 * Splits a byte stream into newline-ended lines, holding at most `limit` bytes of one ({@link BoundedBytes}):
 * a longer line is skipped to its end without being kept, and reported by its size and ends.
 *
 * @example
 * const lines = new BoundedLineSplitter()
 * for (const line of lines.push(chunk)) if (line.kind === 'line') handle(line.bytes)
 */
export class BoundedLineSplitter {
  readonly #line: BoundedBytes

  constructor(limit = MAX_MCP_MESSAGE_BYTES) {
    this.#line = new BoundedBytes(limit)
  }

  /** The lines completed by `chunk`, in order, without their newline. */
  push(chunk: Buffer): SplitLine[] {
    const lines: SplitLine[] = []
    let start = 0
    for (;;) {
      const newline = chunk.indexOf(0x0a, start)
      const end = newline === -1 ? chunk.length : newline
      this.#line.push(chunk.subarray(start, end))
      if (newline === -1) return lines
      lines.push(this.#line.take())
      start = newline + 1
    }
  }

  /** What is held of a last line that no newline ended, if anything. */
  flush(): SplitLine | undefined {
    return this.#line.empty ? undefined : this.#line.take()
  }
}

/** What {@link BoundedBytes} held: whole, or the size and ends of what was too long. */
export type SplitLine =
  | { kind: 'line'; bytes: Buffer }
  | { kind: 'too-large'; bytes: number; head: Buffer; tail: Buffer }

/**
 * Splits an MCP server's stdout into newline-delimited JSON-RPC messages, holding at most
 * {@link MAX_MCP_MESSAGE_BYTES} of one. A longer line is skipped to its end (JSON text never holds a raw
 * newline, so the stream resynchronizes at the next one); it is reported with its size and, when its
 * first or last bytes show one, the id of the request it answers.
 *
 * @example
 * const reader = new BoundedLineReader()
 * for (const line of reader.push(chunk)) if (line.kind === 'message') handle(line.message)
 */
export class BoundedLineReader {
  readonly #lines: BoundedLineSplitter

  constructor(limit = MAX_MCP_MESSAGE_BYTES) {
    this.#lines = new BoundedLineSplitter(limit)
  }

  /** The lines completed by `chunk`, in order. */
  push(chunk: Buffer): ReadLine[] {
    return this.#lines.push(chunk).map(readLine)
  }
}

function readLine(line: SplitLine): ReadLine {
  if (line.kind === 'too-large') {
    return { kind: 'too-large', bytes: line.bytes, id: responseId(line.head, line.tail) }
  }
  try {
    return { kind: 'message', message: deserializeMessage(line.bytes.toString('utf8').replace(/\r$/, '')) }
  } catch (error) {
    return { kind: 'invalid', error: error instanceof Error ? error : new Error(String(error)) }
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= EDGE_BYTES ? buffer : Buffer.from(buffer.subarray(buffer.length - EDGE_BYTES))
}

// The top-level `"id"` of a response sits first (`{"jsonrpc":"2.0","id":7,"result":…`) or last
// (`…},"jsonrpc":"2.0","id":7}`), depending on the server's serializer.
const LEADING_ID = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/
const TRAILING_ID = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$/

/** The id of the request a JSON-RPC response answers, read from its first or last bytes. */
export function responseId(head: Buffer, tail: Buffer): string | number | undefined {
  const found =
    LEADING_ID.exec(head.toString('latin1'))?.[1] ?? TRAILING_ID.exec(tail.toString('latin1'))?.[1]
  if (found === undefined) return undefined
  try {
    return JSON.parse(found) as string | number
  } catch {
    return undefined
  }
}
