// The same handler over the native @google/genai client: the transcript is Gemini Contents (signed in
// the answers: this route runs in the signed stateless mode), the system prompt goes as
// systemInstruction. With GEMINI_API_KEY it talks to Gemini; without, to this app's own offline Gemini
// endpoint (app/api/scripted-gemini), through the real SDK all the same.
import { GoogleGenAI } from '@google/genai'
import { createClient, createToolkit } from 'toolnexus'
import { type ChatHandler, createChatHandler } from 'toolnexus/next'
import { chatSecret } from '@/lib/chat-mode'
import { geminiModelId, SYSTEM_PROMPT } from '@/lib/model'
import { nativeTools } from '@/lib/native-tools'

let handler: ChatHandler | undefined

export async function POST(request: Request): Promise<Response> {
  // Made on the first request: the offline endpoint's address is this server's own.
  handler ??= createChatHandler({
    client: createClient(geminiFor(new URL(request.url).origin)),
    toolkit: createToolkit({ tools: nativeTools }),
    system: SYSTEM_PROMPT,
    secret: chatSecret(),
  })
  return handler(request)
}

function geminiFor(origin: string): { genai: GoogleGenAI; model: string } {
  const apiKey = process.env.GEMINI_API_KEY
  if (apiKey) return { genai: new GoogleGenAI({ apiKey }), model: geminiModelId() }
  const httpOptions = { baseUrl: `${origin}/api/scripted-gemini`, apiVersion: 'v1beta' }
  return { genai: new GoogleGenAI({ apiKey: 'offline', httpOptions }), model: 'scripted' }
}
