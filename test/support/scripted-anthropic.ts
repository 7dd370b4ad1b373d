import { anthropicSchemaProblems } from './anthropic-schema-rules.js'
import { type RecordedRequest, type ScriptStep, splitText, type WireProtocol } from './scripted-server.js'

type Reply = Extract<ScriptStep, { type: 'reply' }>

/** Anthropic Messages (`POST /messages`), JSON and SSE (named events). */
export const anthropicProtocol: WireProtocol = {
  isStream: (request: RecordedRequest) => request.body?.stream === true,
  json: (step: Reply) => ({
    id: 'msg_scripted',
    type: 'message',
    role: 'assistant',
    model: 'claude-scripted',
    content: [
      ...(step.text === undefined ? [] : [{ type: 'text', text: step.text }]),
      ...(step.toolCalls ?? []).map((call) => ({
        type: 'tool_use',
        id: call.id,
        name: call.name,
        input: JSON.parse(call.arguments),
      })),
    ],
    stop_reason: step.toolCalls?.length ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: step.usage?.input ?? 10, output_tokens: step.usage?.output ?? 5 },
  }),
  events: (step: Reply) => {
    const events: Array<{ event: string; data: unknown }> = [
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id: 'msg_scripted',
            type: 'message',
            role: 'assistant',
            model: 'claude-scripted',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: step.usage?.input ?? 10, output_tokens: 1 },
          },
        },
      },
    ]
    let index = 0
    if (step.text !== undefined) {
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      })
      for (const piece of splitText(step.text)) {
        events.push({
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } },
        })
      }
      events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } })
      index++
    }
    for (const call of step.toolCalls ?? []) {
      events.push({
        event: 'content_block_start',
        data: {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
        },
      })
      for (const piece of splitText(call.arguments)) {
        events.push({
          event: 'content_block_delta',
          data: {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: piece },
          },
        })
      }
      events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } })
      index++
    }
    events.push({
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: step.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: step.usage?.output ?? 5 },
      },
    })
    events.push({ event: 'message_stop', data: { type: 'message_stop' } })
    return events
  },
  // Like Anthropic, a tool whose input_schema breaks its rules (root property keys) fails the whole request.
  refuse: (request) => {
    const tools: unknown[] = Array.isArray(request.body?.tools) ? request.body.tools : []
    for (const [index, tool] of tools.entries()) {
      const problems = anthropicSchemaProblems((tool as { input_schema?: unknown }).input_schema)
      if (problems.length > 0) return `tools.${index}.custom.${problems[0]}`
    }
    return undefined
  },
  error: (status: number, message: string) => ({
    type: 'error',
    error: {
      type: status === 429 ? 'rate_limit_error' : status >= 500 ? 'api_error' : 'invalid_request_error',
      message,
    },
  }),
}
