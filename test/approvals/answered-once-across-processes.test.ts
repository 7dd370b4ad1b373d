// An answered approval runs its held call at most once across app instances: each instance is its own Node
// process, all sharing one `secret` and one claims store on a real redis-server or Postgres.
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { provider } from '../loop/support.js'
import { type ScriptedServer, startScriptedServer } from '../support/scripted-server.js'
import { sharedStores } from '../support/shared-stores.js'

const INSTANCE = fileURLToPath(new URL('./approval-instance.ts', import.meta.url))
const SECRET = 'one secret shared by every instance of the app'
/** More approvals than the old per-process replay cache kept. */
const MANY = 10_001

/** The model: "pay N" calls send_money once, "pay many" MANY times; given the results, it answers "done". */
async function startModel(): Promise<ScriptedServer> {
  return startScriptedServer({
    protocol: provider('openai-chat').protocol,
    script: (request) => {
      const messages = (request.body?.messages ?? []) as Array<{ role: string; content?: unknown }>
      if (messages.at(-1)?.role === 'tool') return { type: 'reply', text: 'done' }
      const prompt = JSON.stringify(messages.filter((message) => message.role === 'user').at(-1)?.content)
      const amount = /pay (\w+)/.exec(prompt)?.[1] ?? '0'
      const count = amount === 'many' ? MANY : 1
      const toolCalls = Array.from({ length: count }, (_, index) => ({
        id: `call_${index}`,
        name: 'send_money',
        arguments: JSON.stringify({ amount: count === 1 ? Number(amount) : 1_000_000 + index }),
      }))
      return { type: 'reply', toolCalls }
    },
  })
}

interface Instance {
  url: string
  child: ChildProcess
  post(path: string, body: unknown): Promise<Record<string, unknown>>
  ran(): Promise<string[]>
  stop(): Promise<void>
}

const started = new Set<Instance>()

async function startInstance(model: string, kind: string, claimsUrl: string): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', INSTANCE, model, kind, claimsUrl, SECRET], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the instance did not start within 60 s')), 60_000)
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      const line = output.split('\n')[0] as string
      if (output.includes('\n')) {
        clearTimeout(timer)
        resolve(JSON.parse(line).port)
      }
    })
    child.once('exit', (code) => reject(new Error(`the instance exited with ${code}`)))
  })
  const url = `http://127.0.0.1:${port}`
  const instance: Instance = {
    url,
    child,
    async post(path, body) {
      const response = await fetch(url + path, { method: 'POST', body: JSON.stringify(body) })
      return (await response.json()) as Record<string, unknown>
    },
    async ran() {
      return ((await (await fetch(`${url}/ran`)).json()) as { ran: string[] }).ran
    },
    async stop() {
      started.delete(instance)
      if (child.exitCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(timer)
    },
  }
  started.add(instance)
  return instance
}

/** Sends `messages` as useChat does and reads the answer as useChat does (continuing an answered message). */
async function chat(instance: Instance, messages: UIMessage[], chatId = 'chat-1') {
  const transport = new DefaultChatTransport<UIMessage>({ api: `${instance.url}/chat` })
  const stream = await transport.sendMessages({
    chatId,
    messages,
    trigger: 'submit-message',
    messageId: undefined,
    abortSignal: undefined,
  })
  const last = messages.at(-1)
  let message: UIMessage | undefined
  for await (const snapshot of readUIMessageStream<UIMessage>({
    stream,
    ...(last?.role === 'assistant' ? { message: structuredClone(last) } : {}),
  })) {
    message = snapshot
  }
  return message as UIMessage
}

/** The request body useChat posts, for a replay by hand. */
async function postChat(instance: Instance, messages: UIMessage[], chatId = 'chat-1') {
  const response = await fetch(`${instance.url}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: chatId, messages, trigger: 'submit-message' }),
  })
  return { status: response.status, text: await response.text() }
}

type ToolPart = { type: string; state: string; approval?: { id: string; approved?: boolean } }

/** What `addToolApprovalResponse({ id, approved: true })` does to the message. */
function approve(message: UIMessage): UIMessage {
  const answered = structuredClone(message)
  for (const part of answered.parts as unknown as ToolPart[]) {
    if (part.state !== 'approval-requested' || part.approval === undefined) continue
    part.state = 'approval-responded'
    part.approval = { id: part.approval.id, approved: true }
  }
  return answered
}

function approvalsOf(result: Record<string, unknown>, approved = true) {
  return (result.pending as Array<{ approvalId: string }>).map(({ approvalId }) => ({ approvalId, approved }))
}

describe.each(sharedStores('the cross-process approval tests'))(
  'instances sharing a secret and claims on a real $name',
  (backend) => {
    let model: ScriptedServer | undefined
    let first: Instance
    let second: Instance
    const start = () => startInstance((model as ScriptedServer).url, backend.store, backend.url())

    beforeAll(async () => {
      if (!backend.available) return
      model = await startModel()
      ;[first, second] = await Promise.all([start(), start()])
    }, 120_000)

    afterAll(async () => {
      await Promise.all([...started].map((instance) => instance.stop()))
      await model?.close()
    }, 60_000)

    it.runIf(backend.available)(
      'an approval answered once runs once: again on the same instance, on a second one, on a restarted one',
      async () => {
        const run = await first.post('/run', { prompt: 'pay 101' })
        expect(run.status).toBe('suspended')
        const request = { state: run.state, approvals: approvalsOf(run) }
        expect(await first.post('/resume', request)).toStrictEqual({ status: 'done' })
        expect(await first.post('/resume', request)).toStrictEqual({ error: 'replayed-approval' })
        expect(await second.post('/resume', request)).toStrictEqual({ error: 'replayed-approval' })
        const ranBefore = await first.ran()
        await first.stop()
        first = await start()
        expect(await first.post('/resume', request)).toStrictEqual({ error: 'replayed-approval' })
        expect([...ranBefore, ...(await first.ran()), ...(await second.ran())]).toStrictEqual([
          'send_money 101',
        ])
      },
      120_000,
    )

    it.runIf(backend.available)(
      'a denial on one instance wins: the approval on another runs nothing',
      async () => {
        const run = await first.post('/run', { prompt: 'pay 102' })
        expect(
          await second.post('/resume', { state: run.state, approvals: approvalsOf(run, false) }),
        ).toStrictEqual({
          status: 'done',
        })
        expect(await first.post('/resume', { state: run.state, approvals: approvalsOf(run) })).toStrictEqual({
          error: 'replayed-approval',
        })
        expect([...(await first.ran()), ...(await second.ran())]).not.toContain('send_money 102')
      },
      60_000,
    )

    it.runIf(backend.available)(
      `after ${MANY} other approvals through one instance, a replay there still runs nothing`,
      async () => {
        const run = await first.post('/run', { prompt: 'pay 103' })
        const request = { state: run.state, approvals: approvalsOf(run) }
        expect(await first.post('/resume', request)).toStrictEqual({ status: 'done' })
        const many = await first.post('/run', { prompt: 'pay many' })
        expect(many.pending).toHaveLength(MANY)
        expect(
          await first.post('/resume', { state: many.state, approvals: approvalsOf(many) }),
        ).toStrictEqual({
          status: 'done',
        })
        expect(await first.post('/resume', request)).toStrictEqual({ error: 'replayed-approval' })
        const ran = [...(await first.ran()), ...(await second.ran())]
        expect(ran.filter((entry) => entry === 'send_money 103')).toStrictEqual(['send_money 103'])
      },
      180_000,
    )

    it.runIf(backend.available)(
      'the chat handler: the answer replayed to the second instance runs nothing',
      async () => {
        const question: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'pay 104' }] }
        const asked = await chat(first, [question], 'chat-replay')
        const answered = approve(asked)
        const resumed = await chat(first, [question, answered], 'chat-replay')
        expect(
          (resumed.parts as unknown as ToolPart[]).some((part) => part.state === 'output-available'),
        ).toBe(true)
        const replay = await postChat(second, [question, answered], 'chat-replay')
        expect(replay.status).toBe(409)
        expect(replay.text).toContain('answered already')
        expect((await postChat(first, [question, answered], 'chat-replay')).status).toBe(409)
        const ran = [...(await first.ran()), ...(await second.ran())]
        expect(ran.filter((entry) => entry === 'send_money 104')).toStrictEqual(['send_money 104'])
      },
      60_000,
    )

    it.runIf(backend.available)(
      'the chat handler: a signed run sent with the answer of another message, or in another conversation, runs nothing',
      async () => {
        const one: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'pay 105' }] }
        const two: UIMessage = { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'pay 106' }] }
        const first105 = await chat(first, [one], 'chat-mix')
        const first106 = await chat(first, [one, first105, two], 'chat-mix')
        // The answered message of 105, carrying the signed run (and approval id) of 106.
        const mixed = approve(first105)
        const runOf106 = (first106.metadata as Record<string, unknown>).toolnexusRun
        mixed.metadata = { ...(mixed.metadata as Record<string, unknown>), toolnexusRun: runOf106 }
        for (const part of mixed.parts as unknown as ToolPart[]) {
          if (part.approval !== undefined)
            part.approval.id = ((first106.parts as unknown as ToolPart[]).find((each) => each.approval)
              ?.approval?.id ?? '') as string
        }
        const refused = await postChat(second, [one, mixed], 'chat-mix')
        expect(refused.status).toBe(409)
        expect(refused.text).toContain('another message or conversation')
        // The whole answered message of 105, posted in another conversation.
        const elsewhere = await postChat(second, [one, approve(first105)], 'chat-other')
        expect(elsewhere.status).toBe(409)
        expect(elsewhere.text).toContain('another message or conversation')
        const ran = [...(await first.ran()), ...(await second.ran())]
        expect(ran.filter((entry) => /^send_money 10[56]$/.test(entry))).toStrictEqual([])
      },
      60_000,
    )
  },
)
