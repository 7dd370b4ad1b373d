// The slice of the `@ai-sdk/provider` LanguageModel specification (v2, v3 and v4) that the loop speaks.
// Declared here rather than imported because the three versions live in different majors of
// `@ai-sdk/provider`, and a user has only one of them installed.

/** A JSON value, as the specification types it. */
type JSONValue = null | string | number | boolean | Readonly<JSONObject> | readonly JSONValue[]
/** A JSON object, as the specification types it. */
export type JSONObject = { [key: string]: JSONValue | undefined }

/** Provider-specific options or metadata, keyed by provider. */
export type ProviderOptions = Record<string, JSONObject>

/** A `LanguageModel` object of any supported specification version. */
export interface SpecLanguageModel {
  readonly specificationVersion: 'v2' | 'v3' | 'v4'
  readonly provider: string
  readonly modelId: string
  doGenerate(options: SpecCallOptions): PromiseLike<SpecGenerateResult>
  doStream(options: SpecCallOptions): PromiseLike<SpecStreamResult>
}

/** A file's bytes as the v2/v3 prompt carries them. */
export type SpecDataContent = Uint8Array | string | URL

/** A file's bytes as the v4 prompt carries them (a tagged union). */
export type SpecFileData =
  | { type: 'data'; data: Uint8Array | string }
  | { type: 'url'; url: URL }
  | { type: 'reference'; reference: Record<string, string> }
  | { type: 'text'; text: string }

/** A text part of a prompt message. */
interface SpecTextPart {
  type: 'text'
  text: string
  providerOptions?: ProviderOptions
}

/** A file (or image) part of a prompt message. */
export interface SpecFilePart {
  type: 'file'
  data: SpecDataContent | SpecFileData
  mediaType: string
  filename?: string
  providerOptions?: ProviderOptions
}

/** A reasoning part of an assistant prompt message. */
interface SpecReasoningPart {
  type: 'reasoning'
  text: string
  providerOptions?: ProviderOptions
}

/** A tool call of an assistant prompt message; `input` is the parsed object. */
export interface SpecToolCallPart {
  type: 'tool-call'
  toolCallId: string
  toolName: string
  input: unknown
  providerExecuted?: boolean
  providerOptions?: ProviderOptions
}

/** A tool result of a `tool` prompt message. */
export interface SpecToolResultPart {
  type: 'tool-result'
  toolCallId: string
  toolName: string
  output: unknown
  providerOptions?: ProviderOptions
}

/** A part whose shape the loop passes through untouched (custom parts, approvals, …). */
interface SpecOtherPart {
  type: string
  providerOptions?: ProviderOptions
}

/** One message of a LanguageModel prompt (system content is a string, every other role has parts). */
export type SpecMessage = (
  | { role: 'system'; content: string }
  | { role: 'user'; content: Array<SpecTextPart | SpecFilePart> }
  | {
      role: 'assistant'
      content: Array<SpecTextPart | SpecFilePart | SpecReasoningPart | SpecToolCallPart | SpecOtherPart>
    }
  | { role: 'tool'; content: Array<SpecToolResultPart | SpecOtherPart> }
) & { providerOptions?: ProviderOptions }

/** A function tool declaration, as `doGenerate` takes it. */
export interface SpecFunctionTool {
  type: 'function'
  name: string
  description?: string
  inputSchema: Record<string, unknown>
  /** Strict mode (spec v3 and v4; OpenAI reads it per tool). */
  strict?: boolean
  /** Per-provider options of this tool (`{ anthropic: { deferLoading: true } }`). */
  providerOptions?: ProviderOptions
}

/** A tool the provider defines (web search, code execution, …), declared by id. */
export interface SpecProviderTool {
  type: 'provider' | 'provider-defined'
  id: string
  name: string
  args?: Record<string, unknown>
}

/** How the model may pick tools. */
export type SpecToolChoice =
  | { type: 'auto' }
  | { type: 'none' }
  | { type: 'required' }
  | { type: 'tool'; toolName: string }

/** The options of one `doGenerate` / `doStream` call that the loop sets. */
export interface SpecCallOptions {
  prompt: SpecMessage[]
  tools?: ReadonlyArray<SpecFunctionTool | SpecProviderTool>
  toolChoice?: SpecToolChoice
  abortSignal?: AbortSignal
}

/** v2 usage is flat; v3 and v4 nest totals under `inputTokens` / `outputTokens`. */
export type SpecUsage =
  | { inputTokens?: number | undefined; outputTokens?: number | undefined; totalTokens?: number | undefined }
  | {
      inputTokens: { total?: number | undefined }
      outputTokens: { total?: number | undefined }
    }

/** v2 sends a string; v3 and v4 send `{ unified, raw }`. */
export type SpecFinishReason = string | { unified: string; raw?: string | undefined }

/** A content part of a generate result (only the fields the loop reads). */
export interface SpecContentPart {
  type: string
  text?: string
  toolCallId?: string
  toolName?: string
  input?: string
  providerExecuted?: boolean
  /** A tool defined at run time: the AI SDK accepts a provider-executed call of a tool it was not given. */
  dynamic?: boolean
  /** A `tool-approval-request`'s id. */
  approvalId?: string
  /** A provider-executed tool's result (`tool-result` parts). */
  result?: unknown
  providerMetadata?: ProviderOptions
}

/** What `doGenerate` resolves to (only the fields the loop reads). */
export interface SpecGenerateResult {
  content: SpecContentPart[]
  finishReason: SpecFinishReason
  usage: SpecUsage
  response?: { headers?: Record<string, string | undefined>; [key: string]: unknown }
  [key: string]: unknown
}

/** A stream part (only the fields the loop reads). */
export interface SpecStreamPart {
  type: string
  id?: string
  delta?: string
  toolCallId?: string
  toolName?: string
  input?: string
  providerExecuted?: boolean
  dynamic?: boolean
  approvalId?: string
  providerMetadata?: ProviderOptions
  usage?: SpecUsage
  finishReason?: SpecFinishReason
  error?: unknown
  /** On `response-metadata`: the model that answered. */
  modelId?: string
}

/** What `doStream` resolves to. */
export interface SpecStreamResult {
  stream: ReadableStream<SpecStreamPart>
  response?: { headers?: Record<string, string | undefined> }
  request?: unknown
}

/** A `LanguageModel` prompt message's parts, for code that walks any role. */
export type SpecMessagePart = Exclude<SpecMessage['content'], string>[number]
