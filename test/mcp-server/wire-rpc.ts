// One 2026-07-28 request on the wire, for tests that need what the SDK's Client will not send or accept
// (a task answer, a tampered state): the envelope in `_meta`, the standard headers, one answer read back
// from JSON or the first event of a stream.
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/client'

export const MODERN = '2026-07-28'

export type Rpc = {
  result?: Record<string, unknown>
  error?: { code: number; message: string; data?: unknown }
}

/** The per-request envelope of a 2026-07-28 request, declaring `capabilities`. */
export function envelope(capabilities: Record<string, unknown>): Record<string, unknown> {
  return {
    [PROTOCOL_VERSION_META_KEY]: MODERN,
    [CLIENT_CAPABILITIES_META_KEY]: capabilities,
    [CLIENT_INFO_META_KEY]: { name: 'wire-test', version: '1.0.0' },
  }
}

/** Sends `method` with `params` to `url` and reads its one JSON-RPC answer. */
export async function wireRpc(
  url: URL,
  method: string,
  params: Record<string, unknown>,
  options: { capabilities: Record<string, unknown>; authorization?: string | undefined },
): Promise<Rpc> {
  const name = typeof params.name === 'string' ? params.name : (params.uri ?? params.taskId)
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      ...(options.authorization === undefined ? {} : { authorization: options.authorization }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: { ...params, _meta: envelope(options.capabilities) },
    }),
  })
  const text = await response.text()
  const json = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    ? (text
        .split('\n')
        .find((line) => line.startsWith('data: '))
        ?.slice(6) ?? '{}')
    : text
  return JSON.parse(json) as Rpc
}
