import type { ModelMessage } from 'ai'
import { expect } from 'vitest'
import type { AISDKClientOptions } from '../../src/client/client-options.js'
import { createClient } from '../../src/client/create-client.js'
import type { RunResult, SuspendedRunResult } from '../../src/contracts/run-types.js'
import { ApprovalError } from '../../src/errors.js'
import type { ConversationStore } from '../../src/stores/conversation-store.js'
import { defineTool } from '../../src/tool/define-tool.js'
import type { Tool } from '../../src/tool/types.js'
import { provider } from '../loop/support.js'
import {
  type RecordedRequest,
  type Script,
  type ScriptedServer,
  startScriptedServer,
} from '../support/scripted-server.js'

/** The tools of the approval tests, and what each one actually ran. */
export function approvalTools(): { tools: Tool[]; ran: string[] } {
  const ran: string[] = []
  const tools = [
    defineTool({
      name: 'delete_file',
      description: 'Deletes a file.',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string' } },
        required: ['path'],
        additionalProperties: false,
      },
      needsApproval: true,
      execute: ({ path }) => {
        ran.push(`delete_file ${String(path)}`)
        return `deleted ${String(path)}`
      },
    }),
    defineTool({
      name: 'send_money',
      description: 'Sends money.',
      inputSchema: {
        type: 'object',
        properties: { amount: { type: 'number' } },
        required: ['amount'],
      },
      needsApproval: ({ amount }) => Number(amount) > 100,
      execute: ({ amount }) => {
        ran.push(`send_money ${String(amount)}`)
        return `sent ${String(amount)}`
      },
    }),
    defineTool({
      name: 'get_weather',
      description: 'Current weather for a city.',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: ({ city }) => {
        ran.push(`get_weather ${String(city)}`)
        return `sunny in ${String(city)}`
      },
    }),
  ]
  return { tools, ran }
}

/** A tool call of the scripted model. */
export function call(id: string, name: string, args: Record<string, unknown>) {
  return { id, name, arguments: JSON.stringify(args) }
}

/**
 * An OpenAI chat endpoint whose model makes `calls` on the first request and, on every later one, replies
 * with the tool results it was sent, so tests can read what the model got.
 */
export async function startApprovalModel(
  calls: Array<ReturnType<typeof call>>,
): Promise<ScriptedServer & { toolMessages(index: number): Array<{ id: string; content: string }> }> {
  const script: Script = (request, index) => {
    if (index === 0) return { type: 'reply', toolCalls: calls }
    const results = toolMessagesOf(request)
    return { type: 'reply', text: `got ${results.map((each) => each.content).join(' | ')}` }
  }
  const server = await startScriptedServer({ protocol: provider('openai-chat').protocol, script })
  return {
    ...server,
    toolMessages: (index) => toolMessagesOf(server.requests[index] as RecordedRequest),
  }
}

/** The `tool` messages of an OpenAI chat request, in order. */
export function toolMessagesOf(request: RecordedRequest): Array<{ id: string; content: string }> {
  const messages = (request.body?.messages ?? []) as Array<{
    role: string
    tool_call_id?: string
    content?: unknown
  }>
  return messages
    .filter((message) => message.role === 'tool')
    .map((message) => ({ id: String(message.tool_call_id), content: readContent(String(message.content)) }))
}

/** `@ai-sdk/openai` 4 sends an error result as `{"error": text}`, 3 as the text: read both as the text. */
function readContent(content: string): string {
  try {
    const parsed: unknown = JSON.parse(content)
    if (typeof parsed === 'object' && parsed !== null && 'error' in parsed) return String(parsed.error)
  } catch {
    // Plain text.
  }
  return content
}

/** A client over the scripted endpoint. */
export function clientFor(
  server: { url: string },
  options: Omit<Partial<AISDKClientOptions>, 'model'> & { store?: ConversationStore<ModelMessage> } = {},
) {
  return createClient({ model: provider('openai-chat').model(server.url), retries: 0, ...options })
}

/** The run's result, checked to be a suspension. */
export function suspended<Message>(result: RunResult<Message>): SuspendedRunResult<Message> {
  expect(result.status).toBe('suspended')
  return result as SuspendedRunResult<Message>
}

/** The `ApprovalError` a resume is refused with (the test fails when it resolves, or throws another). */
export async function refusal(promise: Promise<unknown>): Promise<ApprovalError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(ApprovalError.isInstance(error)).toBe(true)
  return error as ApprovalError
}
