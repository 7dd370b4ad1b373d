// Run by the approval tests in a separate Node process: resumes a run from the JSON text on stdin, against
// the scripted endpoint at argv[2], with the answers in argv[3], and prints what happened as JSON.
import { InMemoryConversationStore } from '../../src/stores/in-memory-conversation-store.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { approvalTools, clientFor } from './support.js'

const [url, answers, secret] = process.argv.slice(2) as [string, string, string | undefined]
const chunks: Buffer[] = []
for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
const { tools, ran } = approvalTools()
const toolkit = await createToolkit({ tools })
// A tampered state is refused before any claim: a claim store of this process is enough to show it.
const client = clientFor(
  { url },
  secret === undefined ? {} : { secret, claims: new InMemoryConversationStore() },
)
try {
  const result = await client.resume(Buffer.concat(chunks).toString('utf8'), {
    toolkit,
    approvals: JSON.parse(answers),
  })
  process.stdout.write(JSON.stringify({ status: result.status, text: result.text, ran }))
} catch (error) {
  process.stdout.write(JSON.stringify({ error: (error as { code?: string }).code ?? String(error), ran }))
}
