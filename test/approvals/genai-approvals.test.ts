import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import type { RunEvent, RunState } from '../../src/contracts/run-types.js'
import { ApprovalError } from '../../src/errors.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import {
  genaiFor,
  modelReply,
  type ScriptedGemini,
  startScriptedGemini,
  streamReply,
} from '../support/scripted-gemini.js'
import { approvalTools } from './support.js'

const MODEL = 'gemini-2.5-flash'
let gemini: ScriptedGemini | undefined
afterEach(async () => {
  await gemini?.close()
  gemini = undefined
})

function clientFor(server: ScriptedGemini) {
  const genai = genaiFor(server.baseUrl)
  return createClient({ genai, model: MODEL, retries: 0 })
}

// A model turn with a thought signature, one call with an id and one without (Gemini's usual kind).
const CALLS = [
  { functionCall: { id: 'g1', name: 'delete_file', args: { path: 'a.txt' } }, thoughtSignature: 'c2lnLTE=' },
  { functionCall: { name: 'get_weather', args: { city: 'Oslo' } } },
]

describe('the genai client suspends and resumes the same way', () => {
  it('keeps the model turn verbatim in the state and answers every call in one user turn on resume', async () => {
    gemini = await startScriptedGemini({ script: [modelReply(CALLS), modelReply([{ text: 'All done.' }])] })
    const { tools, ran } = approvalTools()
    const toolkit = await createToolkit({ tools })
    const client = clientFor(gemini)
    const first = await client.run('Clean up', { toolkit })
    expect(first.status).toBe('suspended')
    expect(ran).toStrictEqual(['get_weather Oslo'])
    expect(first.pending).toMatchObject([
      { toolCallId: 'g1', toolName: 'delete_file', args: { path: 'a.txt' } },
    ])
    const text = JSON.stringify(first.state)

    const next = await client.resume(text, {
      toolkit,
      approvals: [{ approvalId: first.pending?.[0]?.approvalId as string, approved: true }],
    })
    expect(next.status).toBe('done')
    expect(next.text).toBe('All done.')
    expect(ran).toStrictEqual(['get_weather Oslo', 'delete_file a.txt'])
    const contents = gemini.requests[1]?.body.contents ?? []
    // The model turn as Gemini sent it, signature included; then one answer per call, in call order.
    expect(contents.at(-2)).toStrictEqual({ role: 'model', parts: CALLS })
    expect(contents.at(-1)).toStrictEqual({
      role: 'user',
      parts: [
        { functionResponse: { id: 'g1', name: 'delete_file', response: { output: 'deleted a.txt' } } },
        { functionResponse: { name: 'get_weather', response: { output: 'sunny in Oslo' } } },
      ],
    })
  })

  it('streams the approval request and a denial; an AI SDK state is refused', async () => {
    gemini = await startScriptedGemini({
      script: [streamReply([CALLS]), streamReply([[{ text: 'Understood.' }]])],
    })
    const { tools, ran } = approvalTools()
    const toolkit = await createToolkit({ tools })
    const client = clientFor(gemini)
    const stream = client.stream('Clean up', { toolkit })
    const events: RunEvent<unknown>[] = []
    for await (const event of stream) events.push(event)
    const first = await stream.result
    expect(events.filter((event) => event.type === 'tool-approval-request')).toHaveLength(1)
    const approvalId = first.pending?.[0]?.approvalId as string

    const foreign = { ...first.state, transport: 'ai-sdk' }
    const refused = await client
      .resume(foreign as never, { toolkit, approvals: [{ approvalId, approved: true }] })
      .catch((error: unknown) => error)
    expect(ApprovalError.isInstance(refused)).toBe(true)
    expect((refused as ApprovalError).code).toBe('invalid-state')

    const resumed = client.resumeStream(first.state as RunState, {
      toolkit,
      approvals: [{ approvalId, approved: false, reason: 'keep it' }],
    })
    const later: RunEvent<unknown>[] = []
    for await (const event of resumed) later.push(event)
    expect(later[0]).toStrictEqual({
      type: 'tool-output-denied',
      toolCallId: 'g1',
      toolName: 'delete_file',
      reason: 'keep it',
    })
    expect((await resumed.result).text).toBe('Understood.')
    expect(ran).toStrictEqual(['get_weather Oslo'])
    expect(gemini.requests[1]?.body.contents.at(-1)?.parts?.[0]).toStrictEqual({
      functionResponse: {
        id: 'g1',
        name: 'delete_file',
        response: {
          error: 'The user declined this call to "delete_file"; it was not run. The user said: keep it',
        },
      },
    })
  })
})
