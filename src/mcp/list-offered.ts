import type { Client } from '@modelcontextprotocol/client'
import type { ListPage } from './list-all-pages.js'

/** The lists of a server's resources, templates and prompts, by method, with the key of their items. */
export type OfferedList =
  | { method: 'resources/list'; key: 'resources' }
  | { method: 'resources/templates/list'; key: 'resourceTemplates' }
  | { method: 'prompts/list'; key: 'prompts' }

/**
 * Every page of a server's resource, template or prompt list, walked by `walk` (which bounds the pages);
 * none when the server does not offer that capability.
 *
 * @example
 * const resources = await listOffered(client, { method: 'resources/list', key: 'resources' }, 30_000, walk)
 */
export function listOffered<Item>(
  client: Client,
  list: OfferedList,
  timeoutMs: number,
  walk: (page: ListPage<Item>) => Promise<Item[]>,
): Promise<Item[]> {
  const capability = list.key === 'prompts' ? 'prompts' : 'resources'
  if (client.getServerCapabilities()?.[capability] === undefined) return Promise.resolve([])
  return walk((params) =>
    client.request({ method: list.method, params }, { timeout: timeoutMs }).then((page) => ({
      items: (page as unknown as Record<string, Item[]>)[list.key] ?? [],
      next: page.nextCursor,
    })),
  )
}
