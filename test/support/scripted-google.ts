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
  refuse: (request: RecordedRequest) => nameRefusal(request),
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

/**
 * Gemini's rule for a function's name (the API answers 400 otherwise): a letter or an underscore first, then
 * letters, digits, `_`, `.`, `:` or `-`, 64 characters at most.
 */
const GEMINI_FUNCTION_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/

function nameRefusal(request: RecordedRequest): string | undefined {
  const declarations: Array<{ name?: unknown }> = (request.body?.tools ?? []).flatMap(
    (tool: { functionDeclarations?: Array<{ name?: unknown }> }) => tool.functionDeclarations ?? [],
  )
  for (const [index, declaration] of declarations.entries()) {
    const name = String(declaration.name)
    if (!GEMINI_FUNCTION_NAME.test(name)) {
      return `* GenerateContentRequest.tools[0].function_declarations[${index}].name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:) or dashes (-), with a maximum length of 64.`
    }
  }
  return undefined
}
