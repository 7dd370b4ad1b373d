// toolnexus/next: the Next.js (App Router) entry. Edge-safe: web APIs and `ai` only, no Node built-ins.

export {
  TASK_DATA_TYPE,
  type ToolTaskData,
  toUIMessageStreamResponse,
  type UIMessageStreamChunk,
  type UIMessageStreamResponseInit,
} from '../ui/to-ui-message-stream-response.js'
export type {
  ChatClient,
  ChatHandler,
  ChatHandlerOptions,
  ChatStore,
  ChatUserMessage,
  SignedChatHandlerOptions,
  StoreChatHandlerOptions,
  ToolkitSource,
} from './chat-handler-options.js'
export { createChatHandler } from './create-chat-handler.js'
export type { ChatLimits } from './read-chat-request.js'
