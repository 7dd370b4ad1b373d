import { type RecordedRequest, type ScriptStep, splitText, type WireProtocol } from './scripted-server.js'

type Reply = Extract<ScriptStep, { type: 'reply' }>

/**
 * The Gemini API as `@ai-sdk/google` calls it (`POST /models/<id>:generateContent`, and
 * `:streamGenerateContent?alt=sse`). Gemini sends no call ids: the client makes them up.
 */
export const googleProtocol: WireProtocol = {
  isStream: (request: RecordedRequest) => request.path.includes(':streamGenerateContent'),
  json: (step: Reply) => ({
    candidates: [
      {
        content: { role: 'model', parts: [...textParts(step.text), ...callParts(step)] },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: usageOf(step),
    modelVersion: 'gemini-scripted',
  }),
  events: (step: Reply) => {
    const chunks: Array<{ data: unknown }> = []
    for (const piece of step.text === undefined ? [] : splitText(step.text)) {
      chunks.push({
        data: { candidates: [{ content: { role: 'model', parts: [{ text: piece }] }, index: 0 }] },
      })
    }
    if (step.toolCalls?.length) {
      chunks.push({
        data: { candidates: [{ content: { role: 'model', parts: callParts(step) }, index: 0 }] },
      })
    }
    chunks.push({
      data: {
        candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: usageOf(step),
        modelVersion: 'gemini-scripted',
      },
    })
    return chunks
  },
  error: (status: number, message: string) => ({
    error: {
      code: status,
      message,
      status: status === 429 ? 'RESOURCE_EXHAUSTED' : status >= 500 ? 'UNAVAILABLE' : 'INVALID_ARGUMENT',
    },
  }),
}

function textParts(text: string | undefined): Array<{ text: string }> {
  return text === undefined ? [] : [{ text }]
}

function callParts(step: Reply): Array<{ functionCall: { name: string; args: unknown } }> {
  return (step.toolCalls ?? []).map((call) => ({
    functionCall: { name: call.name, args: JSON.parse(call.arguments) },
  }))
}

function usageOf(step: Reply): Record<string, number> {
  const input = step.usage?.input ?? 10
  const output = step.usage?.output ?? 5
  return { promptTokenCount: input, candidatesTokenCount: output, totalTokenCount: input + output }
}
