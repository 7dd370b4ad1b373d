// One app instance of the cross-process approval tests, in its own Node process: a client and a signed
// chat handler sharing one `secret` and one claims store (Redis or Postgres), served over loopback HTTP.
// argv: <model url> <redis|postgres> <claims url> <secret>. Prints {"port":n} once it listens.
//   POST /run {prompt}            → { status, state, pending }
//   POST /resume {state, approvals} → { status } or { error: code }
//   POST /chat                    → the chat handler (useChat's request)
//   GET  /ran                     → { ran: [...] } what the tool ran in this process
import { createServer } from 'node:http'
import { createChatHandler } from '../../src/next/create-chat-handler.js'
import type { ClaimStore } from '../../src/shared/claim-store.js'
import { createPostgresStore } from '../../src/stores/postgres-store.js'
import { createRedisStore } from '../../src/stores/redis-store.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { clientFor } from './support.js'

const [url, kind, claimsUrl, secret] = process.argv.slice(2) as [string, string, string, string]
const claims: ClaimStore & { close(): Promise<void> } =
  kind === 'redis'
    ? createRedisStore({ url: claimsUrl })
    : createPostgresStore({ connectionString: claimsUrl })
const ran: string[] = []
const toolkit = await createToolkit({
  tools: [
    defineTool({
      name: 'send_money',
      description: 'Sends money.',
      inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      needsApproval: true,
      execute: ({ amount }) => {
        ran.push(`send_money ${String(amount)}`)
        return `sent ${String(amount)}`
      },
    }),
  ],
})
const client = clientFor({ url }, { secret, claims })
const handler = createChatHandler({ client: clientFor({ url }), toolkit, secret, claims })

async function body(request: import('node:http').IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

const server = createServer(async (request, response) => {
  const reply = (value: unknown) => {
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify(value))
  }
  try {
    if (request.url === '/ran') return reply({ ran })
    const text = await body(request)
    if (request.url === '/run') {
      const result = await client.run(JSON.parse(text).prompt, { toolkit })
      return reply({ status: result.status, state: result.state, pending: result.pending })
    }
    if (request.url === '/resume') {
      const { state, approvals } = JSON.parse(text)
      try {
        const result = await client.resume(state, { toolkit, approvals })
        return reply({ status: result.status })
      } catch (error) {
        return reply({ error: (error as { code?: string }).code ?? String(error) })
      }
    }
    const answer = await handler(
      new Request('http://127.0.0.1/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      }),
    )
    response.statusCode = answer.status
    response.setHeader('content-type', answer.headers.get('content-type') ?? 'text/plain')
    response.end(Buffer.from(await answer.arrayBuffer()))
  } catch (error) {
    response.statusCode = 500
    response.end(String(error))
  }
})
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address?.port })}\n`)
})
process.on('SIGTERM', () => {
  server.close()
  void claims.close().finally(() => process.exit(0))
})
