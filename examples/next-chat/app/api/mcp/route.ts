// The app's toolkit (MCP server, skill, native tools) served as one MCP server over streamable HTTP:
// point any MCP client at http://localhost:3000/api/mcp. Only local hosts are answered (a web page could
// otherwise reach a local server through DNS rebinding); set MCP_ALLOWED_HOSTS when you deploy it. Tools
// that need approval (delete_note) are served only to authorized callers: set MCP_TOKEN, and send it as
// `Authorization: Bearer <token>`.
import { createMcpHandler, type McpHandler } from 'toolnexus/mcp-server'
import { getToolkit } from '@/lib/toolkit'

const allowedHosts = process.env.MCP_ALLOWED_HOSTS?.split(',') ?? ['localhost', '127.0.0.1', '[::1]']
const token = process.env.MCP_TOKEN
const authorize =
  token === undefined || token === ''
    ? undefined
    : (request: Request) => request.headers.get('authorization') === `Bearer ${token}`
let handler: Promise<McpHandler> | undefined

async function handle(request: Request): Promise<Response> {
  handler ??= getToolkit().then(
    (toolkit) =>
      createMcpHandler({ toolkit, name: 'next-chat', allowedHosts, ...(authorize && { authorize }) }),
    (error: unknown) => {
      handler = undefined // let the next request try again
      throw error
    },
  )
  return (await handler)(request)
}

export { handle as DELETE, handle as GET, handle as POST }
