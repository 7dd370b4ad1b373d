'use client'

import { useChat } from '@ai-sdk/react'
import {
  DefaultChatTransport,
  getToolName,
  isToolUIPart,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from 'ai'
import { type FormEvent, type ReactNode, useEffect, useMemo, useRef, useState } from 'react'

const ROUTES = {
  node: { api: '/api/chat', label: 'Node', detail: 'MCP server · skill · native tools' },
  edge: { api: '/api/edge-chat', label: 'Edge', detail: 'native tools on the edge runtime' },
  genai: { api: '/api/genai-chat', label: 'Gemini', detail: 'native tools over the @google/genai client' },
  'ai-sdk': {
    api: '/api/ai-sdk-chat',
    label: 'AI SDK',
    detail: 'plain streamText with the model wrapped by withToolkit',
  },
} as const
type RouteKey = keyof typeof ROUTES
/** How a route keeps the conversation: the server's store, or the browser with signed answers. */
type ChatMode = 'store' | 'signed'
const MODE_DETAIL: Record<ChatMode, string> = {
  store: 'store mode: the server keeps the conversation, the browser sends only its newest message',
  signed: 'signed stateless mode: the browser keeps the conversation, the server signs its answers',
}

const SUGGESTIONS = [
  'What is 12 + 30?',
  'What time is it in Asia/Tokyo?',
  'Look up order A-1042',
  'Load the hello-world skill',
  'Delete the note groceries',
]

export function Chat(props: {
  modelLabel: string
  /** The @google/genai route's model, which is not the AI SDK routes' one. */
  geminiLabel: string
  nodeMode: ChatMode
  nodeStore: 'redis' | 'memory'
}) {
  const { modelLabel, geminiLabel, nodeMode, nodeStore } = props
  const [route, setRoute] = useState<RouteKey>('node')
  // The edge and genai routes always run signed: an edge isolate keeps nothing between requests.
  const mode: ChatMode = route === 'node' ? nodeMode : 'signed'
  return (
    <main className="shell">
      <header className="header">
        <div>
          <h1>
            toolnexus <span className="muted">chat</span>
          </h1>
          <p className="muted small">
            <code>useChat</code> → <code>createChatHandler</code> → your tools
          </p>
        </div>
        <div className="header-right">
          <div className="segmented" role="tablist" aria-label="Route">
            {(Object.keys(ROUTES) as RouteKey[]).map((key) => (
              <button
                key={key}
                type="button"
                role="tab"
                aria-selected={route === key}
                className={route === key ? 'active' : ''}
                onClick={() => setRoute(key)}
              >
                {ROUTES[key].label}
              </button>
            ))}
          </div>
          <span className="pill" data-testid="model-label">
            {route === 'genai' ? geminiLabel : modelLabel}
          </span>
        </div>
      </header>
      {/* One conversation per route; the key keeps each one's state apart. */}
      <Conversation key={route} route={route} mode={mode} store={nodeStore} />
    </main>
  )
}

function Conversation(props: { route: RouteKey; mode: ChatMode; store: 'redis' | 'memory' }) {
  const { route, mode, store } = props
  const { api, detail } = ROUTES[route]
  const transport = useMemo(
    () =>
      mode === 'store'
        ? // The server has the rest of the conversation: send only the newest message.
          new DefaultChatTransport({
            api,
            prepareSendMessagesRequest: ({ id, messages, trigger }) => ({
              body: { id, trigger, message: messages[messages.length - 1] },
            }),
          })
        : new DefaultChatTransport({ api }),
    [api, mode],
  )
  // No fixed id: useChat makes a random one, so two browsers never share a stored conversation.
  // Once every tool call waiting for approval is answered, the answers go to the route, which resumes.
  const { messages, sendMessage, status, error, stop, addToolApprovalResponse } = useChat({
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  })
  const answer = (id: string, approved: boolean) =>
    void addToolApprovalResponse(
      approved ? { id, approved } : { id, approved, reason: 'The user declined in the page.' },
    )
  const [input, setInput] = useState('')
  const bottom = useRef<HTMLDivElement>(null)
  const busy = status === 'submitted' || status === 'streaming'

  // Follow the conversation as it streams in.
  useEffect(() => {
    if (messages.length > 0) bottom.current?.scrollIntoView({ block: 'end' })
  }, [messages])

  const send = (text: string) => {
    if (text.trim() === '' || busy) return
    void sendMessage({ text })
    setInput('')
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    send(input)
  }

  return (
    <>
      <section
        className="messages"
        aria-live="polite"
        data-route={route}
        data-mode={mode}
        data-store={mode === 'store' ? store : undefined}
        data-status={status}
      >
        {messages.length === 0 && (
          <div className="empty">
            <p>
              Route <code>{api}</code> — {detail}.
            </p>
            <p className="muted small" data-testid="chat-mode">
              {MODE_DETAIL[mode]}
              {mode === 'store' ? ` (${store})` : ''}.
            </p>
            <div className="suggestions">
              {SUGGESTIONS.map((suggestion) => (
                <button key={suggestion} type="button" onClick={() => send(suggestion)}>
                  {suggestion}
                </button>
              ))}
            </div>
          </div>
        )}
        {messages.map((message) => (
          <Message key={message.id} message={message} onAnswer={answer} />
        ))}
        {status === 'submitted' && <div className="thinking">Thinking…</div>}
        {error && (
          <div className="error-banner" role="alert" data-testid="chat-error">
            <strong>The run failed.</strong> {error.message}
          </div>
        )}
        <div ref={bottom} className="scroll-anchor" />
      </section>
      <form className="composer" onSubmit={onSubmit}>
        <input
          value={input}
          onChange={(event) => setInput(event.target.value)}
          placeholder="Ask something — try “What is 12 + 30?”"
          aria-label="Message"
        />
        {busy ? (
          <button type="button" onClick={() => void stop()} className="secondary">
            Stop
          </button>
        ) : (
          <button type="submit" disabled={input.trim() === ''}>
            Send
          </button>
        )}
      </form>
    </>
  )
}

function Message({
  message,
  onAnswer,
}: {
  message: UIMessage
  onAnswer: (approvalId: string, approved: boolean) => void
}) {
  return (
    <article className={`message ${message.role}`} data-role={message.role}>
      {message.parts.map((part, index) => {
        const key = `${message.id}-${index}`
        if (part.type === 'text') {
          return (
            <div key={key} className="bubble">
              <RichText text={part.text} />
            </div>
          )
        }
        if (isToolUIPart(part)) {
          return (
            <ToolCard
              key={key}
              name={getToolName(part)}
              state={part.state}
              input={part.input}
              output={part.state === 'output-available' ? part.output : undefined}
              errorText={part.state === 'output-error' ? part.errorText : undefined}
              approvalId={part.state === 'approval-requested' ? part.approval.id : undefined}
              onAnswer={onAnswer}
            />
          )
        }
        return null
      })}
    </article>
  )
}

function ToolCard(props: {
  name: string
  state: string
  input: unknown
  output: unknown
  errorText: string | undefined
  /** Set while the call waits for the user's approval. */
  approvalId: string | undefined
  onAnswer: (approvalId: string, approved: boolean) => void
}) {
  const { name, state, input, output, errorText, approvalId, onAnswer } = props
  const status =
    state === 'output-error'
      ? 'failed'
      : state === 'output-available'
        ? 'done'
        : state === 'output-denied'
          ? 'denied'
          : state === 'approval-requested' || state === 'approval-responded'
            ? 'waiting'
            : 'running'
  return (
    <div
      className={`tool ${status}`}
      data-testid="tool-call"
      data-tool={name}
      data-status={status}
      data-state={state}
    >
      <div className="tool-head">
        <span className="tool-icon" aria-hidden>
          ⚙
        </span>
        <code className="tool-name">{name}</code>
        <span className={`badge ${status}`}>{status}</span>
      </div>
      <div className="tool-body">
        <div className="tool-label">input</div>
        <pre>{formatValue(input)}</pre>
        {status === 'done' && (
          <>
            <div className="tool-label">output</div>
            <pre>{formatValue(output)}</pre>
          </>
        )}
        {approvalId !== undefined && (
          <div className="approval">
            <span>This tool waits for your approval.</span>
            <button type="button" onClick={() => onAnswer(approvalId, true)}>
              Approve
            </button>
            <button type="button" className="secondary" onClick={() => onAnswer(approvalId, false)}>
              Deny
            </button>
          </div>
        )}
        {status === 'denied' && <div className="tool-label">declined: not run</div>}
        {status === 'failed' && (
          <>
            <div className="tool-label">error</div>
            <pre className="error-text">{errorText}</pre>
          </>
        )}
      </div>
    </div>
  )
}

function formatValue(value: unknown): string {
  if (value === undefined) return '—'
  if (typeof value === 'string') return value
  return JSON.stringify(value, null, 2)
}

/** Just enough Markdown for model answers: paragraphs, "- " lists, `code` and **bold**. */
function RichText({ text }: { text: string }) {
  // Keys are each piece's offset in the text: stable while the text only grows at its end.
  return <>{withOffsets(text.trim(), /\n{2,}/).map(([offset, block]) => renderBlock(offset, block))}</>
}

function renderBlock(offset: number, block: string): ReactNode {
  const lines = withOffsets(block, /\n/)
  if (lines.every(([, line]) => line.startsWith('- '))) {
    return (
      <ul key={offset}>
        {lines.map(([at, line]) => (
          <li key={at}>{inline(line.slice(2))}</li>
        ))}
      </ul>
    )
  }
  return <p key={offset}>{inline(block)}</p>
}

function inline(text: string): ReactNode[] {
  return withOffsets(text, /(`[^`]+`|\*\*[^*]+\*\*)/).map(([offset, piece]) => {
    if (piece.startsWith('`') && piece.endsWith('`') && piece.length > 1)
      return <code key={offset}>{piece.slice(1, -1)}</code>
    if (piece.startsWith('**') && piece.endsWith('**') && piece.length > 3)
      return <strong key={offset}>{piece.slice(2, -2)}</strong>
    return piece
  })
}

/** `text` split by `separator` (a capturing group keeps the matches as pieces), each piece with its offset. */
function withOffsets(text: string, separator: RegExp): Array<[number, string]> {
  const pieces: Array<[number, string]> = []
  let offset = 0
  const global = new RegExp(separator.source, 'g')
  const keepMatches = /\((?!\?)/.test(separator.source)
  for (let match = global.exec(text); match !== null; match = global.exec(text)) {
    if (match.index > offset) pieces.push([offset, text.slice(offset, match.index)])
    if (keepMatches) pieces.push([match.index, match[0]])
    offset = match.index + match[0].length
  }
  if (offset < text.length) pieces.push([offset, text.slice(offset)])
  return pieces
}
