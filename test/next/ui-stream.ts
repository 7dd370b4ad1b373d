// Reads a chat route's answer the way the browser does: through the AI SDK's own `DefaultChatTransport`
// (which validates every chunk against the installed `ai`'s schema) and `readUIMessageStream`.
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai'

export { aiMajor } from '../support/ai-version.js'

/** The SSE body as its JSON chunks; throws unless it ends with `data: [DONE]`. */
export async function sseChunks(response: Response): Promise<unknown[]> {
  const text = await response.text()
  const events = text.split('\n\n')
  if (events.pop() !== '')
    throw new Error(`The stream does not end with a blank line: ${JSON.stringify(text)}`)
  if (events.pop() !== 'data: [DONE]') throw new Error(`The stream does not end with [DONE]: ${text}`)
  return events.map((event) => {
    if (!event.startsWith('data: ')) throw new Error(`Not an SSE data line: ${JSON.stringify(event)}`)
    return JSON.parse(event.slice('data: '.length))
  })
}

export interface ChatExchange {
  /** The chunks as the transport parsed them. */
  chunks: UIMessageChunk[]
  /** The assistant message `readUIMessageStream` built from them. */
  message: UIMessage | undefined
  /** What the stream reported through `onError` (the `error` chunks). */
  errors: string[]
  /** The body the transport sent. */
  requestBody: unknown
}

/** How the browser side sends. */
export interface ChatThroughOptions {
  /** The chat id. @default 'chat-1' */
  chatId?: string
  /** @default 'submit-message' */
  trigger?: 'submit-message' | 'regenerate-message'
  /** Send only the newest message, as `{ id, message }` (the AI SDK's `prepareSendMessagesRequest` pattern). */
  onlyLastMessage?: boolean
}

/**
 * Sends `messages` as `useChat` does (`DefaultChatTransport`, its fetch going to `handler` in-process) and
 * reads the answer into the assistant message (the last of `messages`, continued, when it is one).
 */
export async function chatThrough(
  handler: (request: Request) => Promise<Response>,
  messages: UIMessage[],
  options: ChatThroughOptions = {},
): Promise<ChatExchange> {
  const { chatId = 'chat-1', trigger = 'submit-message', onlyLastMessage = false } = options
  let requestBody: unknown
  const transport = new DefaultChatTransport<UIMessage>({
    api: 'http://localhost/api/chat',
    ...(onlyLastMessage
      ? {
          prepareSendMessagesRequest: ({ id, messages: all }) => ({
            body: { id, message: all[all.length - 1] },
          }),
        }
      : {}),
    fetch: async (input, init) => {
      const request = new Request(input, init)
      requestBody = await request.clone().json()
      return handler(request)
    },
  })
  const stream = await transport.sendMessages({
    chatId,
    messages,
    trigger,
    messageId: undefined,
    abortSignal: undefined,
  })
  const [forChunks, forMessage] = stream.tee()
  const chunksPromise = collect(forChunks)
  const errors: string[] = []
  let message: UIMessage | undefined
  // After addToolApprovalResponse, useChat continues the answered assistant message.
  const last = messages.at(-1)
  for await (const snapshot of readUIMessageStream<UIMessage>({
    stream: forMessage,
    ...(last?.role === 'assistant' ? { message: structuredClone(last) } : {}),
    onError: (error) => errors.push(error instanceof Error ? error.message : String(error)),
  })) {
    message = snapshot
  }
  return { chunks: await chunksPromise, message, errors, requestBody }
}

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const items: T[] = []
  const reader = stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return items
    items.push(value)
  }
}

/** A user message as `useChat` builds it. */
export function userMessage(id: string, text: string): UIMessage {
  return { id, role: 'user', parts: [{ type: 'text', text }] }
}
