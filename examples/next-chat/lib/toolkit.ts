// The Node route's toolkit: an MCP server, a skill and native tools. Created on the first request (not at
// import, so `next build` starts no MCP server) and shared by every request after it.
import path from 'node:path'
import { createToolkit, type Toolkit } from 'toolnexus'
import { deleteNote, nativeTools } from './native-tools'

let toolkit: Promise<Toolkit> | undefined

export function getToolkit(): Promise<Toolkit> {
  toolkit ??= createToolkit({
    mcpConfig: {
      mcpServers: {
        // The reference MCP server, run over stdio from this app's node_modules (no network needed).
        everything: {
          command: process.execPath,
          args: [
            path.join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
            'stdio',
          ],
          // Keep the model's menu short: only these of the server's tools load.
          tools: { echo: true, 'get-sum': true },
        },
      },
    },
    skillsDir: path.join(process.cwd(), 'skills'),
    // `add` stays on the edge route; here the MCP server's get-sum adds.
    // `delete_note` waits for the user's approval before it runs.
    tools: [...nativeTools.filter((tool) => tool.name !== 'add'), deleteNote],
  }).catch((error: unknown) => {
    toolkit = undefined // let the next request try again
    throw error
  })
  return toolkit
}
