import {
  type CacheMode,
  type Client,
  type Tool as McpTool,
  SdkError,
  SdkErrorCode,
} from '@modelcontextprotocol/client'
import type { ListPage } from './list-all-pages.js'

/**
 * Every tool of a server, through the client's response cache: a list the server said stays fresh
 * (`ttlMs`) is not asked again until it is stale or the server announces a change. A server whose pages
 * do not end is walked page by page by `walk` instead (which cuts it off with a warning).
 */
export async function listServerTools(options: {
  client: Client
  timeoutMs: number
  cacheMode: CacheMode
  walk: (page: ListPage<McpTool>) => Promise<McpTool[]>
}): Promise<McpTool[]> {
  const { client, timeoutMs: timeout, cacheMode, walk } = options
  // A server that offers only prompts or resources has no tools/list to call.
  if (client.getServerCapabilities()?.tools === undefined) return []
  try {
    return (await client.listTools(undefined, { timeout, cacheMode })).tools
  } catch (error) {
    if (!(error instanceof SdkError && error.code === SdkErrorCode.ListPaginationExceeded)) throw error
  }
  return walk((params) =>
    client.request({ method: 'tools/list', params }, { timeout }).then((page) => ({
      items: page.tools,
      next: page.nextCursor,
    })),
  )
}
