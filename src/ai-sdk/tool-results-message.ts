import type { ModelToolCall } from '../contracts/transport.js'
import type { ToolResult } from '../tool/types.js'

/** The tool message answering one turn's calls, each result's output in the shape `output` gives it. */
export interface ToolResultsMessage<Output> {
  role: 'tool'
  content: Array<{ type: 'tool-result'; toolCallId: string; toolName: string; output: Output }>
}

/**
 * The tool message that answers a turn's calls: one `tool-result` part per call, in order, with the
 * result's output as `output` renders it (an AI SDK `ModelMessage` output, or a LanguageModel prompt's).
 *
 * @example
 * toolResultsMessage(results, (result) => toolResultOutput(result, false))
 * // { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'weather', output: { type: 'text', value: 'Sunny' } }] }
 */
export function toolResultsMessage<Output>(
  results: ReadonlyArray<{ call: ModelToolCall; result: ToolResult }>,
  output: (result: ToolResult) => Output,
): ToolResultsMessage<Output> {
  const content: ToolResultsMessage<Output>['content'] = new Array(results.length)
  for (let index = 0; index < results.length; index++) {
    const { call, result } = results[index] as { call: ModelToolCall; result: ToolResult }
    content[index] = { type: 'tool-result', toolCallId: call.id, toolName: call.name, output: output(result) }
  }
  return { role: 'tool', content }
}
