import type { ToAISDKOptions, toAISDK } from '../adapters/to-ai-sdk.js'
import type { toAnthropic } from '../adapters/to-anthropic.js'
import type { ToGeminiOptions, toGemini } from '../adapters/to-gemini.js'
import type { ToOpenAIOptions, toOpenAI } from '../adapters/to-openai.js'
import type { DoctorReport } from '../doctor/diagnose-tools.js'
import type {
  McpCompletion,
  McpCompletionRequest,
  McpPrompt,
  McpPromptMessages,
  McpRequestOptions,
  McpResource,
  McpResourceContents,
  McpResourceTemplate,
  McpServerInfo,
  McpServerStatus,
} from '../mcp/mcp-source.js'
import type { ToolMatch } from '../search/tool-index.js'
import type { SearchCallOptions, ToolSearchOptions } from '../search/tool-search.js'
import type { Tool, ToolContext, ToolResult } from '../tool/types.js'

/**
 * A call whose arguments were checked once against its tool's schema: whether it waits for approval and
 * its run share that one check. Arguments that do not fit never wait for approval and are answered with
 * the error when run.
 *
 * @example
 * const checked = toolkit.checkCall?.('send_money', { amount: 5 }, 'call_1')
 * if (checked !== undefined && !(await checked.needsApproval)) await checked.execute({ toolCallId: 'call_1' })
 */
export interface CheckedCall {
  /** As {@link ToolRunner.needsApproval} answers for this call. */
  readonly needsApproval: boolean | Promise<boolean>
  /** Runs the call with the checked arguments, as {@link ToolRunner.execute} does (never throws). */
  execute(context?: ToolContext): Promise<ToolResult>
}

/**
 * What the loop and the handlers need of a toolkit: its tools, one by name, a call run with checked
 * arguments and whether it waits for approval, the skills block, and tool search. A `Toolkit` is one.
 *
 * @example
 * function answer(runner: ToolRunner, name: string, args: Record<string, unknown>) {
 *   return runner.execute(name, args, { toolCallId: 'call_1' })
 * }
 */
export interface ToolRunner {
  /** All tools, in assembly order. */
  tools(): readonly Tool[]
  /** The tool with this exposed name. */
  get(name: string): Tool | undefined
  /**
   * Runs a tool by exposed name. Never throws: an unknown name, arguments that break the schema, a throw,
   * a timeout or an abort all come back as error results the model can read.
   */
  execute(name: string, args: Record<string, unknown>, context?: ToolContext): Promise<ToolResult>
  /**
   * Whether this call must wait for a person's approval: the tool's own `needsApproval` or the toolkit's
   * `approval` policy. `false` for unknown tools and for arguments that do not fit the schema (the call is
   * answered with the error, so nothing runs). A `needsApproval` function that throws means `true`. The
   * loop and the MCP server let a call run only on `false` (or a promise of it): a throw, a rejection or
   * any other answer asks a person, for a toolkit made elsewhere too.
   */
  needsApproval(name: string, args: Record<string, unknown>, toolCallId?: string): boolean | Promise<boolean>
  /**
   * Checks a call's arguments once, for both its approval check and its run; `undefined` when no approval
   * rule covers the call (it never waits, and `execute` checks it, once). Optional: without it the loop
   * asks `needsApproval` and `execute` apart.
   */
  checkCall?(name: string, args: Record<string, unknown>, toolCallId?: string): CheckedCall | undefined
  /**
   * Whether some call of this tool may wait for a person's approval, whatever its arguments: its own
   * `needsApproval` or the toolkit's `approval` policy. The MCP server serves such a tool only to callers
   * its host authorized. Optional: without it, the tool's own `needsApproval` decides.
   */
  mayNeedApproval?(name: string): boolean
  /**
   * The tools best matching a request, best first: a full-text ranking over each tool's name (split into
   * words), description, parameter names and descriptions, and its server's name and description (fused
   * with embeddings when `search.embeddings` is set). Works with or without the `search` option.
   */
  search(query: string, options?: SearchCallOptions): Promise<ToolMatch[]>
  /** The `search` options the toolkit was made with; `undefined` when the loop sends every tool. */
  readonly searchOptions?: ToolSearchOptions | undefined
  /** The system-prompt block that lists the skills; empty when there are none. */
  skillsPrompt(): string
  /**
   * The time one call may take, in milliseconds (`createToolkit`'s `toolTimeoutMs`). A run that cannot
   * suspend on an MCP task (the provider form, a durable run) and names no `maxTaskWaitMs` waits that
   * long for it at most, from the call's start; one minute when a toolkit made elsewhere leaves it out.
   */
  readonly toolTimeoutMs?: number
  /**
   * Asks an MCP server for the result of a task a call left working (see `taskWaitMs`): the result, or
   * once more a pending-task result when it still works. Never throws: an unknown server, a failed,
   * cancelled or unknown task come back as error results. Optional: the loop answers a resumed task
   * call with an error without it.
   */
  fetchTask?(
    task: { server: string; tool: string; taskId: string },
    context?: ToolContext,
  ): Promise<ToolResult>
}

/**
 * Every tool from every source under one roof: look them up, run them by exposed name with validated
 * arguments, and render them for any provider.
 */
export interface Toolkit extends ToolRunner, AsyncDisposable {
  /** Adds tools after creation; a name already taken keeps its first owner (with a warning). */
  register(...tools: Tool[]): void
  /** Each configured MCP server's state. */
  mcpStatus(): Record<string, McpServerStatus>
  /** Each configured MCP server's state, reason and tools. */
  mcpServers(): Record<string, McpServerInfo>
  /** Every resource the connected MCP servers list (a server that fails to answer is left out, with a warning). */
  mcpResources(): Promise<McpResource[]>
  /** Every resource template the connected MCP servers list. */
  mcpResourceTemplates(): Promise<McpResourceTemplate[]>
  /**
   * Reads one resource of one server; rejects with an `McpRequestError` when the server cannot. With
   * `inputRound` (a gateway serving the read to its caller), a 2026-07-28 server's questions go up through it.
   */
  readResource(server: string, uri: string, options?: McpRequestOptions): Promise<McpResourceContents>
  /**
   * Listens to the updates of one resource of one server (`resources/subscribe` on a 2025 session, a
   * `subscriptions/listen` stream on a 2026-07-28 one): `onUpdated` is called with the URI on each
   * `notifications/resources/updated`. Resolves once the server holds the subscription, to what ends
   * it (the server is told when its last listener leaves); rejects with an `McpRequestError` when the
   * server offers no subscriptions (see `mcpServers()[name].resourceSubscriptions`) or refuses. Optional:
   * a gateway serving a toolkit without it offers no subscriptions.
   *
   * @example
   * const stop = await toolkit.subscribeResource('docs', 'file:///notes.md', (uri) => reread(uri))
   * await stop()
   */
  subscribeResource?(
    server: string,
    uri: string,
    onUpdated: (uri: string) => void,
  ): Promise<() => Promise<void>>
  /** Every prompt the connected MCP servers list. */
  mcpPrompts(): Promise<McpPrompt[]>
  /**
   * Renders one prompt of one server with its arguments; rejects with an `McpRequestError` when the
   * server cannot. With `inputRound`, a 2026-07-28 server's questions go up through it.
   */
  getPrompt(
    server: string,
    name: string,
    args?: Record<string, string>,
    options?: McpRequestOptions,
  ): Promise<McpPromptMessages>
  /**
   * Completes a prompt argument or resource template variable of one server; no values when it offers
   * no completions. Rejects with an `McpRequestError` when the server cannot answer.
   */
  completeMcp(server: string, request: McpCompletionRequest): Promise<McpCompletion>
  /**
   * Asks an MCP server for the result of a task a call left working past its `taskWaitMs`: the result,
   * or once more a pending-task result while it works. Never throws (see {@link ToolRunner.fetchTask}).
   *
   * @example
   * const result = await toolkit.fetchTask({ server: 'reports', tool: 'build', taskId })
   */
  fetchTask(
    task: { server: string; tool: string; taskId: string },
    context?: ToolContext,
  ): Promise<ToolResult>
  /** Warnings raised while assembling (duplicate names, skipped skills, failed servers). */
  warnings(): readonly string[]
  /** Disconnects every MCP client and ends every child process the toolkit started. */
  close(): Promise<void>
  toOpenAI(options?: ToOpenAIOptions): ReturnType<typeof toOpenAI>
  /**
   * Checks every tool against each provider's schema rules (Gemini, OpenAI, OpenAI strict, Anthropic): sent
   * as it is, lowered (and what was lost), or refused (and why). Run it before you ship.
   */
  doctor(): DoctorReport
  toAnthropic(): ReturnType<typeof toAnthropic>
  toGemini(options?: ToGeminiOptions): ReturnType<typeof toGemini>
  toAISDK(options?: ToAISDKOptions): ReturnType<typeof toAISDK>
}
