import type { Client } from '@modelcontextprotocol/client'

/**
 * What a connected server says it is for, when it said: its `serverInfo` description or title, else its
 * instructions, cut to 1,000 characters (it is the server's text).
 *
 * @example
 * const description = describeServer(session.client)
 */
export function describeServer(client: Client | undefined): string | undefined {
  const info = client?.getServerVersion() as { description?: unknown; title?: unknown } | undefined
  const text = [info?.description, info?.title, client?.getInstructions()].find(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  )
  return text?.slice(0, 1_000)
}
