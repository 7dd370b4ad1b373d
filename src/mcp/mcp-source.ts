import type { PendingTaskMark } from '../tool/pending-task.js'
import type { JSONSchema, Tool, ToolContext, ToolInputRound, ToolResult } from '../tool/types.js'

/** The state of one MCP server. */
export type McpServerStatus = 'connected' | 'failed' | 'disabled'

/** One MCP server's state with the detail behind it. */
export interface McpServerInfo {
  status: McpServerStatus
  /** Why the server failed or is disabled; never contains a secret. */
  reason?: string
  /** The exposed names of the tools it contributes. */
  tools: string[]
  /** How the server is (or was last) spoken to, once it connected: a process, streamable HTTP or SSE. */
  transport?: 'stdio' | 'streamable-http' | 'sse'
  /** True when the server offers resource subscriptions (`resources.subscribe`, when it last connected). */
  resourceSubscriptions?: boolean
}

/**
 * A server's request for input from the user (MCP elicitation, form mode): a message and the flat JSON
 * Schema of the answer it wants.
 *
 * @example
 * const request: ElicitationRequest = {
 *   server: 'github', message: 'Which repository?', signal,
 *   requestedSchema: { type: 'object', properties: { repo: { type: 'string' } }, required: ['repo'] },
 * }
 */
export interface ElicitationRequest {
  /** The server's name in the config. */
  server: string
  message: string
  /**
   * `form` asks for values shaped by `requestedSchema`; `url` asks the user to open `url` (a sign-in or
   * payment page, say) and accepting means they agreed to; the server learns the outcome on its own.
   * `url` requests come only when `createToolkit({ elicitationModes })` lists `'url'`.
   */
  mode?: 'form' | 'url'
  /** The page to open, in URL mode (the server's text: show it, never open it unasked). */
  url?: string
  /** An object schema of primitive properties (string, number, integer, boolean, enum); empty in URL mode. */
  requestedSchema: JSONSchema
  /** Aborted when the server gives up on the request (or the connection closes). */
  signal: AbortSignal
}

/**
 * The user's answer: `accept` with content matching the requested schema, `decline`, or `cancel`
 * (dismissed without a choice).
 *
 * @example
 * const answer: ElicitationResponse = { action: 'accept', content: { repo: 'acme/site' } }
 */
export type ElicitationResponse =
  | { action: 'accept'; content?: Record<string, string | number | boolean | string[]> }
  | { action: 'decline' }
  | { action: 'cancel' }

/**
 * A kind of elicitation request the toolkit declares it answers: `form` (values shaped by a schema) or
 * `url` (a page for the user to open).
 *
 * @example
 * const modes: ElicitationMode[] = ['form', 'url']
 */
export type ElicitationMode = 'form' | 'url'

/**
 * Answers a server's elicitation request. Set it on `createToolkit({ onElicitation })`; without it the
 * toolkit does not advertise elicitation, so servers do not ask.
 *
 * @example
 * const onElicitation: ElicitationHandler = async ({ message, requestedSchema }) =>
 *   (await askUser(message, requestedSchema)) ?? { action: 'cancel' }
 */
export type ElicitationHandler = (
  request: ElicitationRequest,
) => ElicitationResponse | Promise<ElicitationResponse>

/**
 * A resource one server offers.
 *
 * @example
 * const resource: McpResource = { server: 'docs', uri: 'file:///readme.md', name: 'readme', mimeType: 'text/markdown' }
 */
export interface McpResource {
  server: string
  uri: string
  name: string
  title?: string
  description?: string
  mimeType?: string
  /** Size in bytes, when the server says. */
  size?: number
}

/**
 * A resource template one server offers (an RFC 6570 URI template); read it with a URI made from it.
 *
 * @example
 * const template: McpResourceTemplate = { server: 'docs', uriTemplate: 'file:///{path}', name: 'file' }
 */
export interface McpResourceTemplate {
  server: string
  uriTemplate: string
  name: string
  title?: string
  description?: string
  mimeType?: string
}

/**
 * A prompt one server offers, with the arguments it takes.
 *
 * @example
 * const prompt: McpPrompt = { server: 'docs', name: 'summarize', arguments: [{ name: 'topic', required: true }] }
 */
export interface McpPrompt {
  server: string
  name: string
  title?: string
  description?: string
  arguments: Array<{ name: string; description?: string; required?: boolean }>
}

/**
 * What reading a resource gave: one entry per content, text or base64 bytes.
 *
 * @example
 * const read: McpResourceContents = { server: 'docs', uri: 'file:///a.md', contents: [{ uri: 'file:///a.md', text: '# A' }] }
 */
export interface McpResourceContents {
  server: string
  uri: string
  contents: Array<{ uri: string; mimeType?: string | undefined; text?: string; blob?: string }>
}

/**
 * How one `readResource` or `getPrompt` is made when it is served on to a caller up the line (a gateway
 * serving the toolkit over MCP): `inputRound` takes the questions a 2026-07-28 server asks in its answer
 * to the caller, instead of the host's `onElicitation`.
 *
 * @example
 * const messages = await toolkit.getPrompt('docs', 'summarize', {}, { inputRound: context.inputRound })
 */
export interface McpRequestOptions {
  inputRound?: ToolInputRound | undefined
}

/**
 * A rendered prompt: the messages the server made from it, in MCP's shape (role + one content block).
 *
 * @example
 * const prompt: McpPromptMessages = { server: 'docs', name: 'summarize', messages: [{ role: 'user', content: { type: 'text', text: 'Summarize…' } }] }
 */
export interface McpPromptMessages {
  server: string
  name: string
  description?: string
  messages: Array<{ role: 'user' | 'assistant'; content: { type: string; [key: string]: unknown } }>
}

/**
 * A completion asked of one server: which prompt argument or resource template variable, what was typed
 * so far, and the other arguments already filled in.
 *
 * @example
 * const request: McpCompletionRequest = { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'Al' } }
 */
export interface McpCompletionRequest {
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }
  argument: { name: string; value: string }
  context?: { arguments?: Record<string, string> }
}

/**
 * The values a server suggests for a completion (at most 100), and whether it has more.
 *
 * @example
 * const completion: McpCompletion = { values: ['Alice', 'Alan'], hasMore: false }
 */
export interface McpCompletion {
  values: string[]
  total?: number
  hasMore?: boolean
}

/** What the MCP source hands the toolkit: its tools, each server's state, and how to shut it down. */
export interface McpSource {
  /** The tools of every connected server, as they are now (a server's list may change). */
  tools(): Tool[]
  /** Registers the toolkit's callback for a change of `tools()`. */
  onToolsChanged(listener: () => void): void
  /**
   * Every secret of every server: the configured ones (secret env values, header values, expanded
   * variables, OAuth client secrets) and the OAuth tokens learnt since.
   */
  secrets(): readonly string[]
  servers(): Record<string, McpServerInfo>
  resources(): Promise<McpResource[]>
  resourceTemplates(): Promise<McpResourceTemplate[]>
  readResource(server: string, uri: string, options?: McpRequestOptions): Promise<McpResourceContents>
  /** Listens to a resource's updates at its server; resolves to what stops listening. */
  subscribeResource(
    server: string,
    uri: string,
    listener: (uri: string) => void,
  ): Promise<() => Promise<void>>
  prompts(): Promise<McpPrompt[]>
  getPrompt(
    server: string,
    name: string,
    args?: Record<string, string>,
    options?: McpRequestOptions,
  ): Promise<McpPromptMessages>
  complete(server: string, request: McpCompletionRequest): Promise<McpCompletion>
  /** The result of a task a call left working, or the task still pending (never rejects). */
  fetchTask(task: PendingTaskMark, context: ToolContext): Promise<ToolResult>
  close(): Promise<void>
}
