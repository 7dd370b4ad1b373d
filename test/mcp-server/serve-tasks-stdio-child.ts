// Started by the tasks test as a child process: serves one longRunning tool over standard input and output.
import { serveStdio } from '../../src/mcp-server/serve-stdio.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'

const toolkit = await createToolkit({
  tools: [
    defineTool({
      name: 'report',
      description: 'Builds a report (slowly).',
      inputSchema: { type: 'object', properties: { month: { type: 'string' } }, required: ['month'] },
      longRunning: true,
      execute: async ({ month }) => {
        await new Promise((resolve) => setTimeout(resolve, 100))
        return `Report for ${month}.`
      },
    }),
  ],
})
await serveStdio({ toolkit })
