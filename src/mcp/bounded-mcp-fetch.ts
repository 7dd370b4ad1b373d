// What a remote MCP server answers is read within the same message size limit as a stdio server's
// output: the MCP SDK's HTTP transports read a JSON response whole and an SSE event to its end, however
// large, so the fetch they are given bounds both on the way in.
import {
  BoundedBytes,
  BoundedLineSplitter,
  MAX_MCP_MESSAGE_BYTES,
  responseId,
  tooLargeMessage,
} from './bounded-line-reader.js'

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>

/**
 * `fetchFn` with every successful response's body bounded for MCP: a JSON body past `limit` bytes, or a
 * line of an event stream past it, is skipped without being kept. When the skipped message's first or
 * last bytes show the id of the request it answers, a JSON-RPC error naming the limit answers that
 * request in its place, so the call fails at once with the reason and the server goes on serving; a JSON
 * body that shows no id fails the read with that reason. Redirects and error responses pass as they are.
 *
 * @example
 * new StreamableHTTPClientTransport(url, { fetch: boundedMcpFetch() })
 */
export function boundedMcpFetch(fetchFn: Fetch = fetch, limit = MAX_MCP_MESSAGE_BYTES): Fetch {
  return async (url, init) => {
    const response = await fetchFn(url, init)
    if (response.body === null || response.status < 200 || response.status > 299) return response
    const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase()
    const body =
      type === 'text/event-stream'
        ? response.body.pipeThrough(boundedEventStream(limit))
        : response.body.pipeThrough(boundedBody(limit))
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    })
  }
}

// A JSON body is held until it ends (at most `limit` bytes): past that only its size and ends are kept,
// and the body becomes an error for the request its ends name, or fails the read when they name none.
function boundedBody(limit: number): TransformStream<Uint8Array, Uint8Array> {
  const body = new BoundedBytes(limit)
  return new TransformStream({
    transform(chunk) {
      body.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
    },
    flush(controller) {
      const held = body.take()
      if (held.kind === 'line') {
        if (held.bytes.length > 0) controller.enqueue(held.bytes)
        return
      }
      const id = responseId(held.head, held.tail)
      if (id === undefined) throw new Error(tooLargeMessage(held.bytes, limit))
      controller.enqueue(new TextEncoder().encode(JSON.stringify(tooLargeError(id, held.bytes, limit))))
    },
  })
}

function boundedEventStream(limit: number): TransformStream<Uint8Array, Uint8Array> {
  const lines = new BoundedLineSplitter(limit)
  const encoder = new TextEncoder()
  const newline = encoder.encode('\n')
  const write = (
    line: ReturnType<BoundedLineSplitter['push']>[number],
    controller: TransformStreamDefaultController<Uint8Array>,
  ): void => {
    if (line.kind === 'line') {
      controller.enqueue(line.bytes)
      controller.enqueue(newline)
      return
    }
    const head = line.head.toString('latin1')
    if (!head.startsWith('data:')) return
    const id = responseId(Buffer.from(head.slice(head.startsWith('data: ') ? 6 : 5), 'latin1'), line.tail)
    if (id === undefined) return
    controller.enqueue(encoder.encode(`data: ${JSON.stringify(tooLargeError(id, line.bytes, limit))}\n`))
  }
  return new TransformStream({
    transform(chunk, controller) {
      for (const line of lines.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)))
        write(line, controller)
    },
    flush(controller) {
      const last = lines.flush()
      if (last?.kind === 'line') controller.enqueue(last.bytes)
      else if (last !== undefined) write(last, controller)
    },
  })
}

/** The JSON-RPC error that answers request `id` in place of a response over the limit. */
function tooLargeError(id: string | number, bytes: number, limit: number) {
  return { jsonrpc: '2.0', id, error: { code: -32603, message: tooLargeMessage(bytes, limit) } }
}
