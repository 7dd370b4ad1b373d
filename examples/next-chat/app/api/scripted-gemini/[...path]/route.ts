// The offline Gemini endpoint the @google/genai route points its SDK at when GEMINI_API_KEY is unset:
// POST /api/scripted-gemini/v1beta/models/{model}:streamGenerateContent (lib/scripted-gemini.ts).
import { answerGeminiRequest } from '@/lib/scripted-gemini'

export async function POST(request: Request, context: { params: Promise<{ path: string[] }> }) {
  const { path } = await context.params
  const method = /:(generateContent|streamGenerateContent)$/.exec(path.at(-1) ?? '')?.[1]
  if (method === undefined)
    return Response.json({ error: { code: 404, message: 'Not found.' } }, { status: 404 })
  return answerGeminiRequest(request, method)
}
