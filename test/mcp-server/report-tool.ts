// The long-running tool the tasks tests serve: `report` builds a month's report after `delayMs`, and
// runs `then` (when given) before it answers.
import { defineTool } from '../../src/tool/define-tool.js'
import type { ToolContext } from '../../src/tool/types.js'

export function reportTool(
  delayMs: number,
  then?: (month: string, context: ToolContext) => Promise<void> | void,
) {
  return defineTool({
    name: 'report',
    description: 'Builds a report (slowly).',
    inputSchema: { type: 'object', properties: { month: { type: 'string' } }, required: ['month'] },
    longRunning: true,
    execute: async ({ month }, context) => {
      await new Promise((resolve) => setTimeout(resolve, delayMs))
      await then?.(String(month), context)
      return `Report for ${String(month)}.`
    },
  })
}
