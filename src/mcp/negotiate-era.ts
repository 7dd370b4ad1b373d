import type { VersionNegotiationOptions } from '@modelcontextprotocol/client'

/**
 * Which protocol era a server entry speaks: `auto` asks the server first (`server/discover`) and falls
 * back to the 2025 handshake when it does not answer as a 2026-07-28 server; a version pins that era.
 *
 * @example
 * const entry = { url: 'https://tools.example.com/mcp', protocol: '2026-07-28' satisfies McpProtocolChoice }
 */
export type McpProtocolChoice = 'auto' | '2025-11-25' | '2026-07-28'

/** The spellings an entry's `protocol` may take. */
export const PROTOCOL_CHOICES: readonly McpProtocolChoice[] = ['auto', '2025-11-25', '2026-07-28']

/**
 * How the client negotiates for an entry's choice. SSE endpoints are 2025-era only, so they never probe.
 */
export function versionNegotiation(
  choice: McpProtocolChoice,
  transport: 'stdio' | 'streamable-http' | 'sse',
): VersionNegotiationOptions {
  if (choice === '2025-11-25' || transport === 'sse') return { mode: 'legacy' }
  if (choice === '2026-07-28') return { mode: { pin: '2026-07-28' } }
  return { mode: 'auto' }
}
