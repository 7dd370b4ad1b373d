import { type ToAISDKOptions, toAISDK } from '../adapters/to-ai-sdk.js'
import { toAnthropic } from '../adapters/to-anthropic.js'
import { type ToGeminiOptions, toGemini } from '../adapters/to-gemini.js'
import { type ToOpenAIOptions, toOpenAI } from '../adapters/to-openai.js'
import { type DoctorReport, diagnoseTools } from '../doctor/diagnose-tools.js'
import { McpRequestError } from '../errors.js'
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
  McpSource,
} from '../mcp/mcp-source.js'
import type { ToolMatch } from '../search/tool-index.js'
import {
  DEFAULT_SEARCH_LIMIT,
  MAX_SEARCH_LIMIT,
  type SearchCallOptions,
  ToolSearch,
  type ToolSearchOptions,
} from '../search/tool-search.js'
import { capText, quoteShort } from '../shared/cap-text.js'
import type { SkillsSource } from '../skills/skills-source.js'
import type { PendingTaskMark } from '../tool/pending-task.js'
import { errorResult } from '../tool/tool-result.js'
import type { NeedsApproval, Tool, ToolContext, ToolResult } from '../tool/types.js'
import { validatingTool } from '../tool/validating-tool.js'
import { assembleTools, checkDisabledNames, checkToolName, type ToolSources } from './assemble-tools.js'
import { approvalVerdict, checkCallArgs, RefusedArgs } from './check-call.js'
import { type RunToolLimits, runTool, startTool } from './run-tool.js'
import type { CheckedCall, Toolkit, ToolRunner } from './toolkit.js'

// Names an unknown-tool answer lists; the rest are counted.
const MAX_LISTED_TOOLS = 50

/** What a toolkit is made of, once its sources are loaded. */
export interface ToolkitParts extends ToolSources {
  warnings: string[]
  skills: SkillsSource | undefined
  search: ToolSearchOptions | undefined
  limits: RunToolLimits
}
/**
 * The toolkit `createToolkit` makes: the assembled list, calls run by exposed name, and the MCP source's
 * resources and prompts.
 *
 * @example
 * const toolkit = new DefaultToolkit(parts)
 * await toolkit.execute('get_weather', { city: 'Chennai' })
 */
export class DefaultToolkit implements Toolkit {
  #byName = new Map<string, Tool>()
  // Looked at only for a name no tool has.
  #geminiNames = new Map<string, string>()
  // For the tools without a rule `needsApproval` is one lookup, nothing allocated.
  #approvals = new Map<string, NeedsApproval>()
  readonly #parts: ToolkitParts
  #list: readonly Tool[] = []
  // The toolkit's tools as toAISDK runs them (through the toolkit), by the list they were made from.
  readonly #aiSdkTools = new WeakMap<readonly Tool[], Tool[]>()
  #closed: Promise<void> | undefined
  // Assembly warnings already given, so a rebuild after an MCP list change does not repeat them.
  readonly #warned = new Set<string>()
  // Made on the first search: the index library loads only then.
  #search: Promise<ToolSearch> | undefined
  readonly searchOptions: ToolSearchOptions | undefined

  constructor(parts: ToolkitParts) {
    this.#parts = parts
    this.searchOptions = parts.search
    for (const tool of parts.tools) checkToolName(tool)
    this.#rebuild()
    checkDisabledNames(parts, (message) => this.#warnOnce(message))
    // An MCP server's list changed: the next `tools()` (the loop's next turn) has the new list.
    parts.mcp?.onToolsChanged(() => this.#rebuild())
  }

  get toolTimeoutMs(): number {
    return this.#parts.limits.timeoutMs
  }

  tools(): readonly Tool[] {
    return this.#list
  }

  get(name: string): Tool | undefined {
    return this.#find(name)
  }

  #find(name: string): Tool | undefined {
    const tool = this.#byName.get(name)
    if (tool !== undefined || this.#geminiNames.size === 0) return tool
    const own = this.#geminiNames.get(name)
    return own === undefined ? undefined : this.#byName.get(own)
  }

  // Not `async`: an async method would wrap the run's promise in one more, on a path run for every call.
  execute(name: string, args: Record<string, unknown>, context: ToolContext = {}): Promise<ToolResult> {
    const { toolCallId, idempotencyKey, signal, timeoutMs } = context
    const answer = this.#executeNow(name, args, toolCallId, idempotencyKey, signal, timeoutMs, context)
    return answer instanceof Promise ? answer : Promise.resolve(answer)
  }

  /**
   * Whether `runner` is a toolkit of this class whose calls its own `execute` runs: not replaced on the
   * object, overridden by a subclass, or seen through a proxy. Then {@link executeNow} answers as
   * `execute` would.
   *
   * @example
   * const answer = DefaultToolkit.runsOwnExecute(runner) ? runner.executeNow(name, args, 'call_1', undefined, undefined) : runner.execute(name, args)
   */
  static runsOwnExecute(runner: ToolRunner): runner is DefaultToolkit {
    return runner instanceof DefaultToolkit && runner.execute === DefaultToolkit.prototype.execute
  }

  /**
   * `execute`, its result handed back as it is when the tool answers synchronously (else its promise):
   * the loop runs a call through it, with no promise for a tool that answers at once. Never throws, and a
   * promise it hands back never rejects. Positional, not a context object: this runs for every tool call.
   */
  executeNow(
    name: string,
    args: Record<string, unknown>,
    toolCallId: string,
    idempotencyKey: string | undefined,
    signal: AbortSignal | undefined,
  ): ToolResult | Promise<ToolResult> {
    return this.#executeNow(name, args, toolCallId, idempotencyKey, signal, undefined, undefined)
  }

  // `execute`, its result handed back as it is when the tool answers synchronously.
  #executeNow(
    name: string,
    args: Record<string, unknown>,
    toolCallId: string | undefined,
    idempotencyKey: string | undefined,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    reports: ToolContext | undefined,
  ): ToolResult | Promise<ToolResult> {
    const tool = this.#find(name)
    if (tool === undefined) return this.#unknownTool(name)
    const { limits } = this.#parts
    const checked = checkCallArgs(tool, name, args, limits.maxOutputChars)
    if (checked instanceof RefusedArgs) return checked.answer
    return startTool(
      tool,
      checked,
      limits,
      toolCallId,
      idempotencyKey,
      signal,
      timeoutMs ?? limits.timeoutMs,
      reports,
    )
  }

  // The name is quoted by its start and the list is cut, so neither a 200 KB name nor 50,000 tools
  // reach the model whole; the whole text is capped like any output.
  #unknownTool(name: unknown): ToolResult {
    const listed = this.#list.slice(0, MAX_LISTED_TOOLS).map((each) => each.name)
    const more = this.#list.length - listed.length
    const available =
      listed.length === 0 ? '(none)' : `${listed.join(', ')}${more > 0 ? `, … and ${more} more` : ''}`
    const quoted = typeof name === 'string' ? quoteShort(name) : String(typeof name)
    return errorResult(
      capText(`Unknown tool ${quoted}. Available tools: ${available}`, this.#parts.limits.maxOutputChars),
    )
  }

  needsApproval(
    name: string,
    args: Record<string, unknown>,
    toolCallId?: string,
  ): boolean | Promise<boolean> {
    return this.checkCall(name, args, toolCallId)?.needsApproval ?? false
  }

  mayNeedApproval(name: string): boolean {
    return this.#ruleOf(name) !== undefined
  }

  checkCall(name: string, args: Record<string, unknown>, toolCallId?: string): CheckedCall | undefined {
    const rule = this.#ruleOf(name)
    if (rule === undefined) return undefined
    const tool = this.#find(name)
    if (tool === undefined) return undefined
    const checked = checkCallArgs(tool, name, args, this.#parts.limits.maxOutputChars)
    // Arguments that do not fit get the error as their answer: nothing runs, so there is nothing to approve.
    if (checked instanceof RefusedArgs) {
      return { needsApproval: false, execute: () => Promise.resolve(checked.answer) }
    }
    return {
      needsApproval: approvalVerdict(rule, checked, toolCallId),
      execute: (context = {}) => runTool(tool, checked, context, this.#parts.limits),
    }
  }

  async search(query: string, options: SearchCallOptions = {}): Promise<ToolMatch[]> {
    const limit = Math.min(
      Math.max(
        1,
        Math.floor(Number(options.limit ?? this.searchOptions?.limit ?? DEFAULT_SEARCH_LIMIT)) || 1,
      ),
      MAX_SEARCH_LIMIT,
    )
    this.#search ??= import('../search/tool-index.js').then(
      ({ ToolIndex }) =>
        new ToolSearch(
          new ToolIndex(undefined, this.searchOptions?.wordVectors),
          this.searchOptions?.embeddings,
        ),
    )
    const search = await this.#search
    // The list as it is now: a server's `list_changed` since the last search is indexed first.
    return search.search(this.#list, typeof query === 'string' ? query : String(query), limit)
  }

  register(...tools: Tool[]): void {
    for (const tool of tools) {
      checkToolName(tool)
      if (!this.#parts.origins.has(tool)) this.#parts.origins.set(tool, 'register()')
    }
    this.#parts.tools.push(...tools)
    this.#rebuild()
  }

  skillsPrompt(): string {
    return this.#parts.skills?.prompt ?? ''
  }

  mcpStatus(): Record<string, McpServerStatus> {
    return Object.fromEntries(
      Object.entries(this.mcpServers()).map(([server, info]) => [server, info.status]),
    )
  }

  mcpServers(): Record<string, McpServerInfo> {
    return this.#parts.mcp?.servers() ?? {}
  }

  mcpResources(): Promise<McpResource[]> {
    return this.#parts.mcp?.resources() ?? Promise.resolve([])
  }

  mcpResourceTemplates(): Promise<McpResourceTemplate[]> {
    return this.#parts.mcp?.resourceTemplates() ?? Promise.resolve([])
  }

  readResource(server: string, uri: string, options?: McpRequestOptions): Promise<McpResourceContents> {
    return this.#mcpOrReject('resources/read', server).then((mcp) => mcp.readResource(server, uri, options))
  }

  subscribeResource(
    server: string,
    uri: string,
    onUpdated: (uri: string) => void,
  ): Promise<() => Promise<void>> {
    return this.#mcpOrReject('resources/subscribe', server).then((mcp) =>
      mcp.subscribeResource(server, uri, onUpdated),
    )
  }

  mcpPrompts(): Promise<McpPrompt[]> {
    return this.#parts.mcp?.prompts() ?? Promise.resolve([])
  }

  getPrompt(
    server: string,
    name: string,
    args?: Record<string, string>,
    options?: McpRequestOptions,
  ): Promise<McpPromptMessages> {
    return this.#mcpOrReject('prompts/get', server).then((mcp) => mcp.getPrompt(server, name, args, options))
  }

  fetchTask(task: PendingTaskMark, context: ToolContext = {}): Promise<ToolResult> {
    const mcp = this.#parts.mcp
    if (mcp === undefined) {
      return Promise.resolve(
        errorResult(`No MCP server "${task.server}": this toolkit was made without an mcpConfig.`),
      )
    }
    // Bounded like a call: its timeout, the caller's abort, the output cap.
    const tool: Tool = {
      name: `${task.server} task`,
      description: '',
      inputSchema: { type: 'object' },
      source: 'mcp',
      execute: (_args, taskContext) => mcp.fetchTask(task, taskContext ?? {}),
    }
    return runTool(tool, {}, context, this.#parts.limits)
  }

  completeMcp(server: string, request: McpCompletionRequest): Promise<McpCompletion> {
    return this.#mcpOrReject('completion/complete', server).then((mcp) => mcp.complete(server, request))
  }

  #mcpOrReject(method: string, server: string): Promise<McpSource> {
    const mcp = this.#parts.mcp
    if (mcp !== undefined) return Promise.resolve(mcp)
    return Promise.reject(
      new McpRequestError(`No MCP server "${server}": this toolkit was made without an mcpConfig.`, {
        server,
        method,
      }),
    )
  }

  warnings(): readonly string[] {
    return this.#parts.warnings
  }

  close(): Promise<void> {
    this.#closed ??= this.#parts.mcp?.close() ?? Promise.resolve()
    return this.#closed
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close()
  }

  doctor(): DoctorReport {
    return diagnoseTools(this.#list)
  }

  toOpenAI(options?: ToOpenAIOptions): ReturnType<typeof toOpenAI> {
    return toOpenAI(this.#list, options)
  }

  toAnthropic(): ReturnType<typeof toAnthropic> {
    return toAnthropic(this.#list)
  }

  toGemini(options?: ToGeminiOptions): ReturnType<typeof toGemini> {
    return toGemini(this.#list, options)
  }

  toAISDK(options?: ToAISDKOptions): ReturnType<typeof toAISDK> {
    // Calls go through the toolkit, so its timeout, abort handling and output cap hold inside the AI SDK too.
    // Made once per tools list: a list that changes (list_changed, register()) is a new array.
    let tools = this.#aiSdkTools.get(this.#list)
    if (tools === undefined) {
      tools = this.#list.map((tool) =>
        validatingTool({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
          source: tool.source,
          maxOutputChars: this.#parts.limits.maxOutputChars,
          ...this.#approvalOf(tool.name),
          run: (args, context) => runTool(tool, args, context, this.#parts.limits),
        }),
      )
      this.#aiSdkTools.set(this.#list, tools)
    }
    return toAISDK(tools, options)
  }

  #warnOnce(message: string): void {
    if (this.#warned.has(message)) return
    this.#warned.add(message)
    this.#parts.logger.warn(message)
  }

  /** Assembles the list again; the first owner of a name keeps it. */
  #rebuild(): void {
    const assembled = assembleTools(this.#parts, (message) => this.#warnOnce(message))
    this.#byName = assembled.byName
    this.#geminiNames = assembled.geminiNames
    this.#approvals = assembled.approvals
    this.#list = assembled.list
  }

  // The approval rule of the tool with this exposed name (or Gemini-safe name); none for most tools.
  #ruleOf(name: string): NeedsApproval | undefined {
    return (
      this.#approvals.get(name) ??
      (this.#geminiNames.size === 0 ? undefined : this.#approvals.get(this.#geminiNames.get(name) ?? ''))
    )
  }

  #approvalOf(name: string): { needsApproval?: NeedsApproval } {
    const rule = this.#approvals.get(name)
    return rule === undefined ? {} : { needsApproval: rule }
  }
}
