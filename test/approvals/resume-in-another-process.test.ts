import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { InMemoryConversationStore } from '../../src/stores/in-memory-conversation-store.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import type { ScriptedServer } from '../support/scripted-server.js'
import { approvalTools, call, clientFor, startApprovalModel } from './support.js'

const CHILD = fileURLToPath(new URL('./resume-in-child.ts', import.meta.url))
const servers: ScriptedServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

/** Resumes `state` (JSON text) in a fresh Node process; resolves what it printed. */
function resumeInChild(options: { url: string; state: string; approvals: unknown; secret?: string }) {
  const args = ['--import', 'tsx', CHILD, options.url, JSON.stringify(options.approvals)]
  if (options.secret !== undefined) args.push(options.secret)
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] })
  child.stdin.end(options.state)
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8')
  })
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error('the child process did not finish'))
    }, 30_000)
    child.on('close', () => {
      clearTimeout(timer)
      try {
        resolve(JSON.parse(output))
      } catch (error) {
        reject(error)
      }
    })
  })
}

describe('a suspended run resumes in another process', () => {
  it('from its JSON text alone, signed with the shared secret; a tampered copy runs nothing there', async () => {
    const secret = 'shared-between-every-instance'
    const server = await startApprovalModel([
      call('c1', 'delete_file', { path: 'a.txt' }),
      call('c2', 'get_weather', { city: 'Oslo' }),
    ])
    servers.push(server)
    const { tools, ran } = approvalTools()
    const toolkit = await createToolkit({ tools })
    const first = await clientFor(server, { secret, claims: new InMemoryConversationStore() }).run(
      'Clean up',
      {
        toolkit,
      },
    )
    expect(first.status).toBe('suspended')
    expect(ran).toStrictEqual(['get_weather Oslo'])
    const text = JSON.stringify(first.state)
    const approvals = [{ approvalId: first.pending?.[0]?.approvalId, approved: true }]

    const tampered = text.replace('a.txt', 'b.txt')
    expect(await resumeInChild({ url: server.url, state: tampered, approvals, secret })).toStrictEqual({
      error: 'altered-state',
      ran: [],
    })
    expect(await resumeInChild({ url: server.url, state: text, approvals, secret })).toStrictEqual({
      status: 'done',
      text: 'got deleted a.txt | sunny in Oslo',
      ran: ['delete_file a.txt'],
    })
  }, 180_000) // a second Node process through tsx: slow on a loaded machine
})
