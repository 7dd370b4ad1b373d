// Started by the stdio tests as a child process: serves the test toolkit over standard input and output.
import { serveStdio } from '../../src/mcp-server/serve-stdio.js'
import { servedToolkit } from './served-toolkit.js'

const toolkit = await servedToolkit()
await serveStdio({ toolkit, name: 'served-over-stdio', version: '9.9.9' })
