// The same handler on the edge runtime, with edge-safe native tools only (no MCP child process, no
// file system): proves the toolnexus core runs there. An edge isolate keeps nothing between requests,
// so this route always runs in the signed stateless mode: the browser keeps the conversation and the
// server signs its answers with CHAT_SECRET.
import { createClient, createToolkit } from 'toolnexus'
import { createChatHandler } from 'toolnexus/next'
import { chatSecret } from '@/lib/chat-mode'
import { chooseModel, SYSTEM_PROMPT } from '@/lib/model'
import { nativeTools } from '@/lib/native-tools'

export const runtime = 'edge'

export const POST = createChatHandler({
  client: createClient({ model: chooseModel().model, system: SYSTEM_PROMPT }),
  toolkit: createToolkit({ tools: nativeTools }),
  secret: chatSecret(),
})
