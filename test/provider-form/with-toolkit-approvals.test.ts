import {
  generateText,
  type LanguageModel,
  type ModelMessage,
  readUIMessageStream,
  streamText,
  type UIMessage,
} from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import { ApprovalError } from '../../src/errors.js'
import { withToolkit } from '../../src/provider-form/with-toolkit.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { addTool, provider } from '../loop/support.js'
import {
  type RecordedRequest,
  type ScriptedServer,
  type ScriptStep,
  startScriptedServer,
} from '../support/scripted-server.js'
import { bodyOf } from './support.js'

const servers: ScriptedServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

/** Turn 1 deletes a file and adds; once the prompt holds tool results, the model answers. */
function script(request: RecordedRequest): ScriptStep {
  const messages = (request.body as { messages: Array<{ role: string }> }).messages
  if (messages.at(-1)?.role === 'tool') return { type: 'reply', text: 'All done.' }
  return {
    type: 'reply',
    toolCalls: [
      { id: 'call_delete', name: 'delete_file', arguments: '{"path":"a.txt"}' },
      { id: 'call_add', name: 'add', arguments: '{"a":1,"b":2}' },
    ],
  }
}

async function setup() {
  const chosen = provider('openai-chat')
  const server = await startScriptedServer({ protocol: chosen.protocol, script })
  servers.push(server)
  const deleted: string[] = []
  const deleteFile = defineTool({
    name: 'delete_file',
    description: 'Deletes a file.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    needsApproval: true,
    execute: ({ path }) => {
      deleted.push(path)
      return `deleted ${path}`
    },
  })
  const toolkit = await createToolkit({ tools: [deleteFile, addTool] })
  const model = withToolkit(chosen.model(server.url) as Exclude<LanguageModel, string>, { toolkit })
  return { server, model, deleted }
}

/** The conversation after the user answered: what `convertToModelMessages` makes of `useChat`'s answer. */
function answered(
  first: ModelMessage[],
  approvalId: string,
  approved: boolean,
  reason?: string,
): ModelMessage[] {
  return [
    { role: 'user', content: 'Clean up and add.' },
    ...first,
    {
      role: 'tool',
      content: [
        {
          type: 'tool-approval-response',
          approvalId,
          approved,
          providerExecuted: true,
          ...(reason === undefined ? {} : { reason }),
        },
      ],
    },
  ]
}

function requestOf(result: { content: ReadonlyArray<{ type: string }> }): {
  approvalId: string
  toolCallId: string
} {
  const part = result.content.find((each) => each.type === 'tool-approval-request') as
    | { approvalId: string; toolCall: { toolCallId: string } }
    | undefined
  if (part === undefined) throw new Error('no approval request')
  return { approvalId: part.approvalId, toolCallId: part.toolCall.toolCallId }
}

describe('withToolkit approvals', () => {
  it.each(['generate', 'stream'] as const)(
    '%s: a call that needs approval waits as the AI SDK’s own approval request; approved, it runs and the loop goes on',
    async (mode) => {
      const { server, model, deleted } = await setup()
      const ask = async (options: { prompt: string } | { messages: ModelMessage[] }) => {
        if (mode === 'generate') return generateText({ model, ...options })
        const result = streamText({ model, ...options })
        await result.consumeStream()
        return {
          content: await result.content,
          response: await result.response,
          text: await result.text,
          toolResults: await result.toolResults,
        }
      }
      const first = await ask({ prompt: 'Clean up and add.' })
      expect(deleted).toStrictEqual([])
      expect(first.toolResults.map((each) => each.toolName)).toStrictEqual(['add'])
      const request = requestOf(first)
      expect(request.toolCallId).toBe('call_delete')

      const second = await ask({ messages: answered(first.response.messages, request.approvalId, true) })
      expect(deleted).toStrictEqual(['a.txt'])
      expect(second.text).toBe('All done.')
      expect(second.toolResults.map((each) => [each.toolCallId, each.output])).toStrictEqual([
        ['call_delete', 'deleted a.txt'],
      ])
      // The model's next request pairs both calls of the turn with their results, as it made them.
      const messages = bodyOf<{ messages: Array<Record<string, unknown>> }>(server, 1).messages
      expect(messages.map((message) => message.role)).toStrictEqual(['user', 'assistant', 'tool', 'tool'])
      expect(messages.slice(2).map((message) => [message.tool_call_id, message.content])).toStrictEqual([
        ['call_delete', 'deleted a.txt'],
        ['call_add', '{"sum":3}'],
      ])
      expect(server.requests).toHaveLength(2)
    },
  )

  it('denied with a reason: the tool never runs and the model reads that the user declined, and why', async () => {
    const { server, model, deleted } = await setup()
    const first = await generateText({ model, prompt: 'Clean up and add.' })
    const { approvalId } = requestOf(first)
    const second = await generateText({
      model,
      messages: answered(first.response.messages, approvalId, false, 'Keep a.txt.'),
    })
    expect(deleted).toStrictEqual([])
    expect(second.text).toBe('All done.')
    const sent = JSON.stringify(bodyOf(server, 1))
    expect(sent).toContain('The user declined this call to')
    expect(sent).toContain('Keep a.txt.')
  })

  it('an answer sent twice is refused as a replay, and an altered state is refused: nothing runs', async () => {
    const { model, deleted } = await setup()
    const first = await generateText({ model, prompt: 'Clean up and add.' })
    const { approvalId } = requestOf(first)
    const messages = answered(first.response.messages, approvalId, true)
    await generateText({ model, messages })
    await expect(generateText({ model, messages })).rejects.toSatisfy((error) =>
      ApprovalError.isInstance(error),
    )
    expect(deleted).toStrictEqual(['a.txt'])

    // Altering the sealed state is refused before anything runs.
    const fresh = await setup()
    const again = await generateText({ model: fresh.model, prompt: 'Clean up and add.' })
    const text = JSON.stringify(answered(again.response.messages, requestOf(again).approvalId, true))
    const alteredState = JSON.parse(text.replaceAll('a.txt', 'b.txt')) as ModelMessage[]
    await expect(generateText({ model: fresh.model, messages: alteredState })).rejects.toSatisfy((error) =>
      ApprovalError.isInstance(error),
    )
    expect(fresh.deleted).toStrictEqual([])
    // Altering only the call the AI SDK shows changes nothing: the run goes on with what was approved.
    const alteredCall = JSON.parse(text.replace('a.txt', 'b.txt')) as ModelMessage[]
    await generateText({ model: fresh.model, messages: alteredCall })
    expect(fresh.deleted).toStrictEqual(['a.txt'])
  })

  it('useChat’s reader shows the waiting call as approval-requested', async () => {
    const { model } = await setup()
    const result = streamText({ model, prompt: 'Clean up and add.' })
    let message: UIMessage | undefined
    for await (const built of readUIMessageStream({ stream: result.toUIMessageStream() })) message = built
    const states = (message?.parts ?? [])
      .filter((part) => part.type === 'dynamic-tool')
      .map((part) => [part.toolName, part.state])
    expect(states).toStrictEqual([
      ['delete_file', 'approval-requested'],
      ['add', 'output-available'],
    ])
  })
})
