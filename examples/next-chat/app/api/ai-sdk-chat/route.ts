// The same chat written in plain AI SDK style: `streamText` and `toUIMessageStreamResponse`, with the
// model wrapped by `withToolkit` so the toolnexus loop runs the toolkit inside each model call.
import { convertToModelMessages, streamText, type UIMessage } from 'ai'
import { withToolkit } from 'toolnexus'
import { chooseModel, SYSTEM_PROMPT } from '@/lib/model'
import { getToolkit } from '@/lib/toolkit'

export async function POST(request: Request): Promise<Response> {
  const { messages } = (await request.json()) as { messages: UIMessage[] }
  const toolkit = await getToolkit()
  const result = streamText({
    model: withToolkit(chooseModel().model, { toolkit }),
    system: SYSTEM_PROMPT,
    messages: await convertToModelMessages(messages),
  })
  return result.toUIMessageStreamResponse()
}
