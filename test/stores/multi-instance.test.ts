// Two Node processes each serve the chat handler in store mode over one Redis (and one Postgres): a
// conversation started on one continues on the other with its tool calls and results, and ten
// conversations at once across both lose nothing.
import type { ModelMessage, UIMessage } from 'ai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chatThrough, userMessage } from '../next/ui-stream.js'
import { type NodeWorker, startNodeWorker } from '../support/node-worker.js'
import { openaiChatProtocol } from '../support/scripted-openai.js'
import { type ScriptedServer, startScriptedServer } from '../support/scripted-server.js'
import { sharedStores } from '../support/shared-stores.js'
import { lookupScript } from './fixtures/lookup-model.js'

const cases = sharedStores('the multi-instance test')
const CONVERSATIONS = 10

let model: ScriptedServer

beforeAll(async () => {
  model = await startScriptedServer({ protocol: openaiChatProtocol, script: lookupScript })
})

afterAll(async () => {
  await model?.close()
})

/** A handler that sends each request to an instance over HTTP, as a load balancer would. */
function through(port: number): (request: Request) => Promise<Response> {
  return async (request) =>
    fetch(`http://127.0.0.1:${port}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: await request.text(),
    })
}

function textOf(message: UIMessage | undefined): string {
  return (message?.parts ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('')
}

function toolOutputsOf(message: UIMessage | undefined): unknown[] {
  return (message?.parts ?? []).flatMap((part) =>
    part.type === 'dynamic-tool' && part.state === 'output-available' ? [part.output] : [],
  )
}

describe.each(cases)('two chat handler instances over one $name store', (kind) => {
  it.runIf(kind.available)(
    'continue each other’s conversations with their tool results; ten at once lose nothing',
    async () => {
      const env = { STORE: kind.store, STORE_URL: kind.url(), MODEL_URL: model.url }
      const file = new URL('./fixtures/chat-instance.ts', import.meta.url)
      const workers: NodeWorker[] = [startNodeWorker(file, env), startNodeWorker(file, env)]
      try {
        const instances = (await Promise.all(workers.map((worker) => worker.nextLine()))).map(
          (line) => JSON.parse(line) as { port: number; pid: number },
        )
        const conversations = Array.from({ length: CONVERSATIONS }, async (_, index) => {
          const chatId = `${kind.store}-conversation-${index}`
          // Half the clients send only the new message, half the whole history.
          const onlyLastMessage = index % 2 === 0
          const [first, second] = index % 2 === 0 ? instances : [...instances].reverse()
          if (first === undefined || second === undefined) throw new Error('two instances expected')
          const question = userMessage('u1', `c${index} first`)
          const one = await chatThrough(through(first.port), [question], { chatId, onlyLastMessage })
          expect(one.errors).toStrictEqual([])
          expect(toolOutputsOf(one.message)).toStrictEqual([`value of c${index} first (pid ${first.pid})`])
          expect(textOf(one.message)).toContain('having seen 1 tool results')

          const followUp = userMessage('u2', `c${index} second`)
          const history = [question, ...(one.message === undefined ? [] : [one.message]), followUp]
          const two = await chatThrough(through(second.port), history, { chatId, onlyLastMessage })
          expect(two.errors).toStrictEqual([])
          expect(toolOutputsOf(two.message)).toStrictEqual([`value of c${index} second (pid ${second.pid})`])
          // The other instance's turn, tool call and result included, reached the model from the store.
          expect(textOf(two.message)).toContain('having seen 2 tool results')
          return { chatId, first, second, index }
        })
        const finished = await Promise.all(conversations)

        const store = kind.open()
        try {
          for (const { chatId, first, second, index } of finished) {
            const messages = (await store.load<ModelMessage>(chatId))?.messages ?? []
            expect(messages.map((message) => message.role)).toStrictEqual([
              ...['user', 'assistant', 'tool', 'assistant'],
              ...['user', 'assistant', 'tool', 'assistant'],
            ])
            const text = JSON.stringify(messages)
            expect(text).toContain(`value of c${index} first (pid ${first.pid})`)
            expect(text).toContain(`value of c${index} second (pid ${second.pid})`)
          }
        } finally {
          await store.close()
        }
        // Every model call happened once: two turns of two calls per conversation.
        expect(model.requests.length).toBeGreaterThanOrEqual(CONVERSATIONS * 4)
      } finally {
        for (const worker of workers) worker.kill()
      }
    },
    60_000,
  )
})
