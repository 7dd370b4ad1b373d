// What the chat approval tests do as useChat does: send a request and read its answer, and answer a
// message's approval requests.
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai'
import { expect } from 'vitest'

/** A signed-mode chat handler's secret for the tests. */
export const CHAT_SECRET = 'a-chat-secret-of-at-least-32-characters'

/**
 * Posts `messages` to `handler` as `useChat` would, and hands back the raw response (for a replay or a
 * forged message, whose answer is checked as it is).
 */
export function postChat(
  handler: (request: Request) => Promise<Response>,
  messages: UIMessage[],
  chatId = 'chat-1',
): Promise<Response> {
  return handler(
    new Request('http://localhost/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: chatId, messages, trigger: 'submit-message' }),
    }),
  )
}

/**
 * Sends `messages` the way `useChat` does (`DefaultChatTransport`, fetching `handler` in-process) and reads
 * the answer with `readUIMessageStream`, continuing `messages`' last assistant message when it is one (as
 * `useChat` does after `addToolApprovalResponse`).
 */
export async function send(
  handler: (request: Request) => Promise<Response>,
  messages: UIMessage[],
  chatId = 'chat-1',
) {
  const transport = new DefaultChatTransport<UIMessage>({
    api: 'http://localhost/api/chat',
    fetch: (input, init) => handler(new Request(input, init)),
  })
  const stream = await transport.sendMessages({
    chatId,
    messages,
    trigger: 'submit-message',
    messageId: undefined,
    abortSignal: undefined,
  })
  const last = messages.at(-1)
  const errors: string[] = []
  let message: UIMessage | undefined
  for await (const snapshot of readUIMessageStream<UIMessage>({
    stream,
    ...(last?.role === 'assistant' ? { message: structuredClone(last) } : {}),
    onError: (error) => errors.push(String(error)),
  })) {
    message = snapshot
  }
  expect(errors).toStrictEqual([])
  return message as UIMessage
}

export type ToolPart = {
  type: string
  toolCallId: string
  state: string
  input?: unknown
  output?: unknown
  approval?: { id: string; approved?: boolean; reason?: string }
}

export function toolParts(message: UIMessage): ToolPart[] {
  return message.parts.filter((part) => part.type === 'dynamic-tool') as unknown as ToolPart[]
}

/** What `addToolApprovalResponse({ id, approved, reason })` does to the message. */
export function answer(
  message: UIMessage,
  answers: Record<string, { approved: boolean; reason?: string }>,
): UIMessage {
  const copy = structuredClone(message)
  for (const part of toolParts(copy)) {
    const given = part.approval === undefined ? undefined : answers[part.toolCallId]
    if (given === undefined || part.approval === undefined) continue
    part.state = 'approval-responded'
    part.approval = { id: part.approval.id, ...given }
  }
  return copy
}

/** Each tool part's call id and state, in order. */
export function toolStates(message: UIMessage): unknown[] {
  return toolParts(message).map((part) => [part.toolCallId, part.state])
}

/** Each `data-toolnexus-task` part's call id and task status, in order. */
export function taskStatuses(message: UIMessage): unknown[] {
  return taskParts(message).map((part) => [part.id, part.data.status])
}

/** A message's `data-toolnexus-task` parts: a call still running as an MCP task. */
export type TaskPart = { type: string; id: string; data: Record<string, unknown> }

/** The `data-toolnexus-task` parts of a message, in order. */
export function taskParts(message: UIMessage): TaskPart[] {
  return message.parts.filter((part) => part.type === 'data-toolnexus-task') as unknown as TaskPart[]
}
