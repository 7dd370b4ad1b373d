// The offline model of the @google/genai route, speaking Gemini's REST protocol so that the real
// `@google/genai` SDK talks to it (`httpOptions.baseUrl`): it reads the request's Contents and function
// declarations, lets the scripted model (lib/scripted-model.ts) decide, and answers as Gemini does —
// `streamGenerateContent?alt=sse` as server-sent events, text word by word, then the function calls.
import type { LanguageModelV4Prompt } from '@ai-sdk/provider'
import { type Reply, scriptedReply } from './scripted-model'

type GeminiPart = {
  text?: string
  functionCall?: { id?: string; name?: string; args?: Record<string, unknown> }
  functionResponse?: { id?: string; name?: string; response?: { output?: unknown; error?: unknown } }
}
type GeminiContent = { role?: string; parts?: GeminiPart[] }
type AssistantPart = Extract<LanguageModelV4Prompt[number], { role: 'assistant' }>['content'][number]
type ToolPart = Extract<LanguageModelV4Prompt[number], { role: 'tool' }>['content'][number]
type GeminiRequest = {
  contents?: GeminiContent[]
  tools?: Array<{ functionDeclarations?: Array<{ name?: string }> }>
}

/** Answers one `models/{model}:generateContent` or `:streamGenerateContent` request. */
export async function answerGeminiRequest(request: Request, method: string): Promise<Response> {
  const body = (await request.json()) as GeminiRequest
  const names = (body.tools ?? []).flatMap((tool) =>
    (tool.functionDeclarations ?? []).flatMap((declaration) => (declaration.name ? [declaration.name] : [])),
  )
  const reply = scriptedReply(toPrompt(body.contents ?? []), names)
  const chunks = toChunks(reply)
  if (method !== 'streamGenerateContent') {
    return Response.json(chunk(chunks.flat(), true))
  }
  const encoder = new TextEncoder()
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const [index, parts] of chunks.entries()) {
        const last = index === chunks.length - 1
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk(parts, last))}\r\n\r\n`))
        if (!last) await new Promise((resolve) => setTimeout(resolve, 15))
      }
      controller.close()
    },
  })
  return new Response(stream, { headers: { 'content-type': 'text/event-stream' } })
}

/** The Contents as the scripted model reads a conversation: Gemini's function answers are tool results. */
function toPrompt(contents: GeminiContent[]): LanguageModelV4Prompt {
  const prompt: LanguageModelV4Prompt = []
  const names = new Map<string, string>()
  for (const content of contents) {
    const parts = content.parts ?? []
    if (content.role === 'model') {
      prompt.push({
        role: 'assistant',
        content: parts.flatMap((part): AssistantPart[] => {
          if (part.text !== undefined) return [{ type: 'text', text: part.text }]
          if (part.functionCall === undefined) return []
          const { id = '', name = '', args = {} } = part.functionCall
          names.set(id, name)
          return [{ type: 'tool-call', toolCallId: id, toolName: name, input: args }]
        }),
      })
    } else if (parts.some((part) => part.functionResponse !== undefined)) {
      prompt.push({
        role: 'tool',
        content: parts.flatMap((part): ToolPart[] => {
          if (part.functionResponse === undefined) return []
          const { id = '', name, response = {} } = part.functionResponse
          const failed = response.error !== undefined
          const value = String(failed ? response.error : response.output)
          return [
            {
              type: 'tool-result',
              toolCallId: id,
              toolName: name ?? names.get(id) ?? '',
              output: failed ? { type: 'error-text', value } : { type: 'text', value },
            },
          ]
        }),
      })
    } else {
      prompt.push({
        role: 'user',
        content: parts.flatMap((part) =>
          part.text === undefined ? [] : [{ type: 'text' as const, text: part.text }],
        ),
      })
    }
  }
  return prompt
}

/** The reply as the parts of each streamed chunk: a word of text each, then every function call. */
function toChunks(reply: Reply): GeminiPart[][] {
  const words = reply.text.match(/\S+\s*/g) ?? []
  const chunks: GeminiPart[][] = words.map((word) => [{ text: word }])
  const calls = reply.toolCalls.map((call) => ({
    functionCall: { id: `call_${crypto.randomUUID().slice(0, 8)}`, name: call.toolName, args: call.input },
  }))
  if (calls.length > 0 || chunks.length === 0) chunks.push(calls)
  return chunks
}

function chunk(parts: GeminiPart[], last: boolean) {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
    ...(last ? { usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 } } : {}),
    modelVersion: 'scripted',
  }
}
