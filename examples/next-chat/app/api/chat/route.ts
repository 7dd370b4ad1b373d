// The chat route on the Node runtime: MCP server + skill + native tools, in the mode CHAT_MODE picks
// (lib/chat-mode.ts): the server keeps the conversation (store), or the browser does and the server signs
// its answers (signed). Either way it runs on N instances over one Redis: in the signed mode they share
// CHAT_SECRET and claim each answered approval in Redis, so it runs once.
import { createClient } from 'toolnexus'
import { createChatHandler } from 'toolnexus/next'
import { chatClaims, chatMode, chatSecret, chatStore } from '@/lib/chat-mode'
import { chooseModel, SYSTEM_PROMPT } from '@/lib/model'
import { getToolkit } from '@/lib/toolkit'

const client = createClient({ model: chooseModel().model, system: SYSTEM_PROMPT })

export const POST =
  chatMode() === 'store'
    ? createChatHandler({ client, toolkit: getToolkit, store: chatStore() })
    : createChatHandler({ client, toolkit: getToolkit, secret: chatSecret(), claims: chatClaims() })
