// The public API of toolnexus. Every name exported here is public API: add with care, never `export *`.
// This entry stays importable on edge runtimes: what needs Node loads on demand or lives behind a subpath.

export { type FromAISDKOptions, fromAISDK } from './adapters/from-ai-sdk.js'
export type { GeminiSchema, GeminiSchemaType } from './adapters/gemini-schema/gemini-schema.js'
// Adapters
export {
  convertJsonSchemaToOpenAIStrictSchema,
  type OpenAIStrictConversion,
} from './adapters/openai-strict-schema/convert-json-schema-to-openai-strict-schema.js'
export { type ToAISDKOptions, toAISDK } from './adapters/to-ai-sdk.js'
export { type AnthropicTool, toAnthropic } from './adapters/to-anthropic.js'
export {
  type GeminiFunctionDeclaration,
  type GeminiToolWrapper,
  type ToGeminiOptions,
  toGemini,
} from './adapters/to-gemini.js'
export { type OpenAITool, type ToOpenAIOptions, toOpenAI } from './adapters/to-openai.js'
// The loop
export type { Client } from './client/client.js'
export type {
  AISDKClientOptions,
  AskOptions,
  ClientOptions,
  GenAIClientOptions,
  GenAIMessage,
} from './client/client-options.js'
export { createClient } from './client/create-client.js'
// Approvals: calls that wait for a person, suspended runs and their state
export type {
  ApprovalResponse,
  FinishedRunResult,
  Hooks,
  MessageFormat,
  PendingApproval,
  PendingTask,
  ResumeOptions,
  RunEvent,
  RunOptions,
  RunResult,
  RunState,
  RunStateCall,
  RunStateTransport,
  SuspendedRunResult,
  ToolCallRecord,
  Usage,
} from './contracts/run-types.js'
export type { UserContentPart } from './conversation/user-message.js'
// Checking tools against each provider's schema rules
export {
  type DeprecatedLoweredVerdict,
  DOCTOR_PROVIDERS,
  type DoctorProvider,
  type DoctorReport,
  type DoctorToolReport,
  type DoctorVerdict,
  diagnoseTools,
} from './doctor/diagnose-tools.js'
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
  ToolResultError,
} from './errors.js'
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
// @google/genai: declaring the tools and answering a response's function calls in your own loop
export { toGenAITools } from './genai/to-genai-tools.js'
export { httpTool } from './http/http-tool.js'
export type { HttpMethod, HttpToolSpec } from './http/http-tool-spec.js'
export type { RetryOptions } from './loop/retry.js'
export type { RunStream } from './loop/run-stream.js'
// Tool search
export { SEARCH_TOOL_NAME } from './loop/search-session.js'
export type { LoopOptions } from './loop/settings.js'
export type {
  McpAuthConfig,
  McpConfig,
  McpIdentityProvider,
  McpServerConfig,
  McpServerType,
} from './mcp/mcp-config.js'
export type {
  ElicitationHandler,
  ElicitationMode,
  ElicitationRequest,
  ElicitationResponse,
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
} from './mcp/mcp-source.js'
export type { McpProtocolChoice } from './mcp/negotiate-era.js'
export type {
  OAuthAuthorizationRequest,
  OAuthAuthorizationResult,
  OAuthCredentials,
  OAuthIdTokenRequest,
  OAuthOptions,
  OAuthTokenStore,
} from './mcp/oauth-options.js'
// The provider form: the toolnexus loop as an AI SDK LanguageModel
export {
  createToolnexus,
  type ToolnexusProvider,
  type ToolnexusProviderOptions,
} from './provider-form/create-toolnexus.js'
export {
  type LanguageModelObject,
  type WithToolkitOptions,
  withToolkit,
} from './provider-form/with-toolkit.js'
export type { ToolMatch } from './search/tool-index.js'
export type { SearchCallOptions, ToolSearchOptions } from './search/tool-search.js'
export {
  createWordVectors,
  type WordVectorOptions,
  type WordVectorSource,
  type WordVectors,
} from './search/word-vectors.js'
export type { Awaitable } from './shared/awaitable.js'
export type { ClaimStore } from './shared/claim-store.js'
export type { Logger } from './shared/logger.js'
export type {
  ConversationRecord,
  ConversationStore,
  StoredConversation,
} from './stores/conversation-store.js'
export { createMemoryStore } from './stores/create-memory-store.js'
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
  LongRunning,
  NeedsApproval,
  Tool,
  ToolAnnotations,
  ToolContext,
  ToolInputRequest,
  ToolInputRound,
  ToolLogEntry,
  ToolMedia,
  ToolProgress,
  ToolResult,
  ToolServer,
  ToolSource,
} from './tool/types.js'
// Toolkit and sources
export type { ApprovalPolicy } from './toolkit/approval-policy.js'
export { createToolkit, type ToolkitOptions } from './toolkit/create-toolkit.js'
export type { CheckedCall, Toolkit } from './toolkit/toolkit.js'
export { VERSION } from './version.js'
