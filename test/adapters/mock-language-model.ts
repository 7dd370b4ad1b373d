// A recording AI SDK model for either major: `ai` 7 ships MockLanguageModelV4, `ai` 6 MockLanguageModelV3.
// Both take scripted results (one per call, in order) and keep every call's options in `doGenerateCalls`.
import * as testing from 'ai/test'

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
}

export { aiMajor, aiVersion } from '../support/ai-version.js'

type MockModel = InstanceType<typeof testing.MockLanguageModelV4>
type MockOptions = ConstructorParameters<typeof testing.MockLanguageModelV4>[0]

/** The mock class of the installed major (feature-detected, never assumed). */
export const MockLanguageModel: new (options?: MockOptions) => MockModel =
  Reflect.get(testing, 'MockLanguageModelV4') ?? Reflect.get(testing, 'MockLanguageModelV3')

/** A `doGenerate` result that calls one tool. */
export function toolCallResult(call: { toolCallId: string; toolName: string; input: unknown }) {
  return {
    content: [
      {
        type: 'tool-call' as const,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input: JSON.stringify(call.input),
      },
    ],
    finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
    usage,
    warnings: [],
  }
}

/** A `doGenerate` result that answers with text. */
export function textResult(text: string) {
  return {
    content: [{ type: 'text' as const, text }],
    finishReason: { unified: 'stop' as const, raw: 'stop' },
    usage,
    warnings: [],
  }
}

/** A `doStream` result that streams one tool call. */
export function toolCallStream(call: { toolCallId: string; toolName: string; input: unknown }) {
  return {
    stream: testing.convertArrayToReadableStream([
      { type: 'stream-start' as const, warnings: [] },
      {
        type: 'tool-call' as const,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input: JSON.stringify(call.input),
      },
      { type: 'finish' as const, finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' }, usage },
    ]),
  }
}

/** A `doStream` result that streams text. */
export function textStream(text: string) {
  return {
    stream: testing.convertArrayToReadableStream([
      { type: 'stream-start' as const, warnings: [] },
      { type: 'text-start' as const, id: 't1' },
      { type: 'text-delta' as const, id: 't1', delta: text },
      { type: 'text-end' as const, id: 't1' },
      { type: 'finish' as const, finishReason: { unified: 'stop' as const, raw: 'stop' }, usage },
    ]),
  }
}
