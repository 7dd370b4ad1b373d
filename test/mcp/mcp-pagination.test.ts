// A server whose list never ends is cut off at a bound, with a warning that says so and what was kept.

import { afterEach, describe, expect, it } from 'vitest'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { PAGED_SERVER, recordingLogger } from './mcp-fixtures.js'

const toolkits: Toolkit[] = []
afterEach(async () => {
  for (const toolkit of toolkits.splice(0)) await toolkit.close()
})

describe('MCP list pagination', () => {
  it.each([
    [
      'a list that never ends stops at 1,000 pages with a warning',
      '--endless',
      1000,
      [
        'MCP server "paged" has more than 1,000 pages, the limit while listing tools: kept the 1,000 tools of its first 1,000 pages.',
      ],
    ],
    [
      // The SDK's page walk ends where a page repeats the one before it, cursor and items alike.
      'a cursor that sends the client back to the same page ends the listing there',
      '--loop-cursor',
      2,
      [],
    ],
  ])(
    '%s',
    async (_case, flag, tools, warnings) => {
      const { logger, lines } = recordingLogger()
      const toolkit = await createToolkit({
        logger,
        mcpConfig: { mcpServers: { paged: { command: process.execPath, args: [PAGED_SERVER, flag] } } },
      })
      toolkits.push(toolkit)
      expect(toolkit.mcpStatus()).toStrictEqual({ paged: 'connected' })
      expect(toolkit.tools()).toHaveLength(tools)
      expect(lines).toStrictEqual(warnings)
    },
    60_000,
  )
})
