// The chat route on the Node runtime: MCP server + skill + native tools.
import { createClient } from 'toolnexus'
import { createChatHandler } from 'toolnexus/next'
import { chooseModel, SYSTEM_PROMPT } from '@/lib/model'
import { getToolkit } from '@/lib/toolkit'

export const POST = createChatHandler({
  client: createClient({ model: chooseModel().model, system: SYSTEM_PROMPT }),
  toolkit: getToolkit,
})
