// toolnexus/next: the Next.js (App Router) entry. Edge-safe: web APIs and `ai` only, no Node built-ins.

export {
  toUIMessageStreamResponse,
  type UIMessageStreamChunk,
  type UIMessageStreamResponseInit,
} from '../ui/to-ui-message-stream-response.js'
export {
  type ChatClient,
  type ChatHandler,
  type ChatHandlerOptions,
  type ChatStore,
  type ChatUserMessage,
  createChatHandler,
  type SignedChatHandlerOptions,
  type StoreChatHandlerOptions,
  type ToolkitSource,
} from './create-chat-handler.js'
export type { ChatLimits } from './read-chat-request.js'
