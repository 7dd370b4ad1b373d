/** Fetches one page of a list: the items, and the cursor of the next page when there is one. */
export type ListPage<Item> = (params: {
  cursor?: string
}) => Promise<{ items: Item[]; next: string | undefined }>

/**
 * Every page of a list, up to `maxPages`. A server still handing out cursors past the limit, or handing
 * out one it gave before (it would page forever), is cut off there with a warning saying what was kept.
 */
export async function listAllPages<Item>(options: {
  server: string
  what: string
  maxPages: number
  page: ListPage<Item>
  onWarning: ((message: string) => void) | undefined
}): Promise<Item[]> {
  const { server, what, maxPages, page, onWarning } = options
  const items: Item[] = []
  const seen = new Set<string>()
  let cursor: string | undefined
  for (let count = 1; ; count++) {
    const result = await page(cursor === undefined ? {} : { cursor })
    items.push(...result.items)
    cursor = result.next
    if (cursor === undefined) return items
    const problem = seen.has(cursor)
      ? 'handed out a cursor it had given before (it would page forever)'
      : count >= maxPages
        ? `has more than ${maxPages.toLocaleString('en-US')} pages, the limit`
        : undefined
    if (problem !== undefined) {
      onWarning?.(
        `MCP server "${server}" ${problem} while listing ${what}: kept the ${items.length.toLocaleString('en-US')} ${what} of its first ${count.toLocaleString('en-US')} pages.`,
      )
      return items
    }
    seen.add(cursor)
  }
}
