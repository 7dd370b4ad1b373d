// Started by the tasks test as a child process: serves one longRunning tool over standard input and output.
import { serveStdio } from '../../src/mcp-server/serve-stdio.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { reportTool } from './report-tool.js'

const toolkit = await createToolkit({
  tools: [reportTool(100)],
})
await serveStdio({ toolkit })
