import { openAIStrictProblems } from './openai-strict-rules.js'
import { type RecordedRequest, type ScriptStep, splitText, type WireProtocol } from './scripted-server.js'

type Reply = Extract<ScriptStep, { type: 'reply' }>

const CREATED = 1_700_000_000

/** OpenAI Chat Completions (`POST /chat/completions`), JSON and SSE. */
export const openaiChatProtocol: WireProtocol = {
  isStream: (request: RecordedRequest) => request.body?.stream === true,
  json: (step: Reply) => ({
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: CREATED,
    model: 'gpt-scripted',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: step.text ?? null,
          ...(step.toolCalls?.length
            ? {
                tool_calls: step.toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
        finish_reason: step.toolCalls?.length ? 'tool_calls' : 'stop',
      },
    ],
    usage: usageOf(step),
  }),
  events: (step: Reply) => {
    const chunk = (delta: unknown, finishReason: string | null = null) => ({
      data: {
        id: 'chatcmpl-scripted',
        object: 'chat.completion.chunk',
        created: CREATED,
        model: 'gpt-scripted',
        choices: [{ index: 0, delta, finish_reason: finishReason }],
      },
    })
    const events: Array<{ data: unknown } | { raw: string }> = [chunk({ role: 'assistant', content: '' })]
    for (const piece of step.text === undefined ? [] : splitText(step.text))
      events.push(chunk({ content: piece }))
    step.toolCalls?.forEach((call, index) => {
      events.push(
        chunk({
          tool_calls: [
            { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
          ],
        }),
      )
      for (const piece of splitText(call.arguments)) {
        events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }))
      }
    })
    events.push(chunk({}, step.toolCalls?.length ? 'tool_calls' : 'stop'))
    events.push({
      data: {
        id: 'chatcmpl-scripted',
        object: 'chat.completion.chunk',
        created: CREATED,
        model: 'gpt-scripted',
        choices: [],
        usage: usageOf(step),
      },
    })
    events.push({ raw: 'data: [DONE]' })
    return events
  },
  error: (status: number, message: string) => ({
    error: {
      message,
      type: status === 429 ? 'rate_limit_exceeded' : 'server_error',
      param: null,
      code: null,
    },
  }),
  refuse: (request: RecordedRequest) => strictRefusal(request),
}

// Like OpenAI, a tool sent with `strict: true` whose schema breaks strict mode's rules fails the request:
// Chat Completions nest it as `{ type: 'function', function: { name, parameters, strict } }`, Responses
// flatten it as `{ type: 'function', name, parameters, strict }`.
function strictRefusal(request: RecordedRequest): string | undefined {
  const tools: unknown[] = Array.isArray(request.body?.tools) ? request.body.tools : []
  for (const tool of tools) {
    if (typeof tool !== 'object' || tool === null) continue
    const entry = tool as Record<string, unknown>
    const declared = (
      typeof entry.function === 'object' && entry.function !== null ? entry.function : entry
    ) as Record<string, unknown>
    if (declared.strict !== true) continue
    const problems = openAIStrictProblems(declared.parameters)
    if (problems.length > 0) {
      return `Invalid schema for function '${String(declared.name)}': ${problems.join('; ')}`
    }
  }
  return undefined
}

function usageOf(step: Reply): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  const input = step.usage?.input ?? 10
  const output = step.usage?.output ?? 5
  return { prompt_tokens: input, completion_tokens: output, total_tokens: input + output }
}

/** OpenAI Responses (`POST /responses`), JSON and SSE. */
export const openaiResponsesProtocol: WireProtocol = {
  isStream: (request: RecordedRequest) => request.body?.stream === true,
  json: (step: Reply) => ({
    id: 'resp_scripted',
    object: 'response',
    created_at: CREATED,
    status: 'completed',
    model: 'gpt-scripted',
    error: null,
    incomplete_details: null,
    output: responseOutput(step),
    usage: responsesUsage(step),
  }),
  events: (step: Reply) => {
    const output = responseOutput(step)
    const base = {
      id: 'resp_scripted',
      object: 'response',
      created_at: CREATED,
      model: 'gpt-scripted',
      error: null,
      incomplete_details: null,
    }
    const events: Array<{ event?: string; data: unknown }> = [
      {
        event: 'response.created',
        data: { type: 'response.created', response: { ...base, status: 'in_progress', output: [] } },
      },
    ]
    output.forEach((item, outputIndex) => {
      if (item.type === 'message') {
        events.push({
          event: 'response.output_item.added',
          data: {
            type: 'response.output_item.added',
            output_index: outputIndex,
            item: { type: 'message', id: item.id, role: 'assistant', status: 'in_progress', content: [] },
          },
        })
        for (const piece of splitText(step.text ?? '')) {
          events.push({
            event: 'response.output_text.delta',
            data: {
              type: 'response.output_text.delta',
              item_id: item.id,
              output_index: outputIndex,
              content_index: 0,
              delta: piece,
              logprobs: [],
            },
          })
        }
      } else {
        events.push({
          event: 'response.output_item.added',
          data: {
            type: 'response.output_item.added',
            output_index: outputIndex,
            item: { ...item, arguments: '', status: 'in_progress' },
          },
        })
        events.push({
          event: 'response.function_call_arguments.delta',
          data: {
            type: 'response.function_call_arguments.delta',
            item_id: item.id,
            output_index: outputIndex,
            delta: item.arguments,
          },
        })
      }
      events.push({
        event: 'response.output_item.done',
        data: { type: 'response.output_item.done', output_index: outputIndex, item },
      })
    })
    events.push({
      event: 'response.completed',
      data: {
        type: 'response.completed',
        response: { ...base, status: 'completed', output, usage: responsesUsage(step) },
      },
    })
    return events
  },
  error: openaiChatProtocol.error,
  refuse: (request: RecordedRequest) => strictRefusal(request),
}

type ResponsesItem =
  | {
      type: 'message'
      id: string
      role: 'assistant'
      status: 'completed'
      content: Array<{ type: 'output_text'; text: string; annotations: [] }>
    }
  | {
      type: 'function_call'
      id: string
      call_id: string
      name: string
      arguments: string
      status: 'completed'
    }

function responseOutput(step: Reply): ResponsesItem[] {
  const output: ResponsesItem[] = []
  if (step.text !== undefined) {
    output.push({
      type: 'message',
      id: 'msg_scripted',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: step.text, annotations: [] }],
    })
  }
  for (const call of step.toolCalls ?? []) {
    output.push({
      type: 'function_call',
      id: `fc_${call.id}`,
      call_id: call.id,
      name: call.name,
      arguments: call.arguments,
      status: 'completed',
    })
  }
  return output
}

function responsesUsage(step: Reply): Record<string, unknown> {
  const input = step.usage?.input ?? 10
  const output = step.usage?.output ?? 5
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  }
}
