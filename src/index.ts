// The public API of toolnexus. Every name exported here is public API: add with care, never `export *`.
// This entry stays importable on edge runtimes: what needs Node loads on demand or lives behind a subpath.

export { type FromAISDKOptions, fromAISDK } from './adapters/convert-from-ai-sdk-tools.js'
export type { GeminiSchema, GeminiSchemaType } from './adapters/convert-json-schema-to-gemini-schema.js'
// Adapters
export {
  convertJsonSchemaToOpenAIStrictSchema,
  type OpenAIStrictConversion,
} from './adapters/convert-json-schema-to-openai-strict-schema.js'
export { type ToAISDKOptions, ToolResultError, toAISDK } from './adapters/convert-to-ai-sdk-tools.js'
export { type AnthropicTool, toAnthropic } from './adapters/convert-to-anthropic-tools.js'
export {
  type GeminiFunctionDeclaration,
  type GeminiToolWrapper,
  type ToGeminiOptions,
  toGemini,
} from './adapters/convert-to-gemini-tools.js'
export { type OpenAITool, type ToOpenAIOptions, toOpenAI } from './adapters/convert-to-openai-tools.js'
// The provider form: the toolnexus loop as an AI SDK LanguageModel
export {
  createToolnexus,
  type LanguageModelObject,
  type ToolnexusProvider,
  type ToolnexusProviderOptions,
  type WithToolkitOptions,
  withToolkit,
} from './ai-sdk/with-toolkit.js'
export type { ClaimStore } from './approvals/claim-store.js'
// Approvals: calls that wait for a person, suspended runs and their state
export type {
  ApprovalResponse,
  PendingApproval,
  RunState,
  RunStateCall,
  RunStateTransport,
} from './approvals/run-state.js'
// The loop
export {
  type AISDKClientOptions,
  type AskOptions,
  type Client,
  type ClientOptions,
  createClient,
  type GenAIClientOptions,
  type GenAIMessage,
} from './client/create-client.js'
export type { UserContentPart } from './client/user-message.js'
// Checking tools against each provider's schema rules
export {
  DOCTOR_PROVIDERS,
  type DoctorProvider,
  type DoctorReport,
  type DoctorToolReport,
  type DoctorVerdict,
  diagnoseTools,
} from './doctor/doctor.js'
// Durable runs: the seam an engine adapter (toolnexus/dbos) implements
export {
  type DurableRunInput,
  type DurableRunner,
  type DurableSteps,
  type DurableWork,
  LiveWorkers,
} from './durable/durable-runner.js'
// Errors
export {
  AbortError,
  type AbortReason,
  ApprovalError,
  type ApprovalErrorCode,
  ConfigError,
  McpRequestError,
  ModelCallError,
  StoreError,
  type StoreOperation,
  ToolDefinitionError,
  ToolnexusError,
} from './errors.js'
// @google/genai: declaring the tools and answering a response's function calls in your own loop
export { toGenAITools } from './genai/convert-to-genai-tools.js'
export { type ExecuteFunctionCallsOptions, executeFunctionCalls } from './genai/execute-function-calls.js'
export type {
  GenAIBlob,
  GenAIClient,
  GenAIContent,
  GenAIFileData,
  GenAIFunctionCall,
  GenAIFunctionResponse,
  GenAIGenerationConfig,
  GenAIPart,
  GenAIResponse,
  GenAIUsageMetadata,
} from './genai/genai-types.js'
export { httpTool } from './http/http-tool.js'
export type { HttpMethod, HttpToolSpec } from './http/http-tool-spec.js'
export type { RetryOptions } from './loop/retry.js'
export type { RunStream } from './loop/run-stream.js'
export type {
  Awaitable,
  FinishedRunResult,
  Hooks,
  ResumeOptions,
  RunEvent,
  RunOptions,
  RunResult,
  SuspendedRunResult,
  ToolCallRecord,
  Usage,
} from './loop/types.js'
export type { McpAuthConfig, McpConfig, McpServerConfig, McpServerType } from './mcp/mcp-config.js'
export type {
  ElicitationHandler,
  ElicitationRequest,
  ElicitationResponse,
  McpPrompt,
  McpPromptMessages,
  McpResource,
  McpResourceContents,
  McpResourceTemplate,
  McpServerInfo,
  McpServerStatus,
} from './mcp/mcp-source.js'
export type {
  OAuthAuthorizationRequest,
  OAuthCredentials,
  OAuthOptions,
  OAuthTokenStore,
} from './mcp/oauth-options.js'
// Tool search
export { SEARCH_TOOL_NAME } from './search/search-session.js'
export type { ToolMatch } from './search/tool-index.js'
export type { SearchCallOptions, ToolSearchOptions } from './search/tool-search.js'
export type { Logger } from './shared/logger.js'
export type {
  ConversationRecord,
  ConversationStore,
  StoredConversation,
} from './stores/conversation-store.js'
export { fromGetSaveStore, type GetSaveStore } from './stores/from-get-save-store.js'
export {
  InMemoryConversationStore,
  type InMemoryConversationStoreOptions,
} from './stores/in-memory-conversation-store.js'
export type { TelemetryOptions } from './telemetry/telemetry-options.js'
export { type DefineToolOptions, defineTool } from './tool/define-tool.js'
export type { FromJsonSchema, InferToolArgs } from './tool/infer-tool-args.js'
export { sanitizeToolName, TOOL_NAME_PATTERN } from './tool/names.js'
export type { InputSchema } from './tool/to-json-schema.js'
// Tools
export { DEFAULT_MAX_MEDIA_BYTES } from './tool/tool-media.js'
export type {
  JSONSchema,
  NeedsApproval,
  Tool,
  ToolAnnotations,
  ToolContext,
  ToolMedia,
  ToolResult,
  ToolServer,
  ToolSource,
} from './tool/types.js'
// Toolkit and sources
export type { ApprovalPolicy } from './toolkit/approval-policy.js'
export { createToolkit, type ToolkitOptions } from './toolkit/create-toolkit.js'
export type { CheckedCall, Toolkit } from './toolkit/toolkit.js'
export { VERSION } from './version.js'
