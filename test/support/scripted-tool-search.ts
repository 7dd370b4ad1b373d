// Scripted Anthropic Messages and OpenAI Responses endpoints whose model uses the provider's own tool
// search: on the first request it searches the deferred tools and calls the first one found, once the
// call is answered it says "done". Each refuses (400, like the provider) a request whose deferred tools
// are not on the wire as that provider reads them, or whose history drops the search that loaded a tool.
import { anthropicProtocol } from './scripted-anthropic.js'
import { openaiResponsesProtocol } from './scripted-openai.js'
import type { RecordedRequest, WireProtocol } from './scripted-server.js'

export interface NativeSearchPlan {
  /** The tools sent without `defer_loading`. */
  pinned: readonly string[]
  /** What the provider's search finds, best first. */
  found: readonly string[]
  /** The arguments of the call to the first tool found. */
  args: Record<string, unknown>
}

type Json = Record<string, unknown>

const usage = { input_tokens: 10, output_tokens: 5 }

/** Anthropic's tool search tool (BM25) over `defer_loading` tools. */
export function anthropicToolSearch(plan: NativeSearchPlan): WireProtocol {
  return {
    isStream: () => false,
    json: (_step, request) => {
      const answered = (request.body.messages as Json[]).some(
        (message) =>
          message.role === 'user' &&
          Array.isArray(message.content) &&
          message.content.some((block: Json) => block.type === 'tool_result'),
      )
      const content = answered
        ? [{ type: 'text', text: 'done' }]
        : [
            {
              type: 'server_tool_use',
              id: 'srvtoolu_1',
              name: 'tool_search_tool_bm25',
              input: { query: 'stock price' },
            },
            {
              type: 'tool_search_tool_result',
              tool_use_id: 'srvtoolu_1',
              content: {
                type: 'tool_search_tool_search_result',
                tool_references: plan.found.map((name) => ({ type: 'tool_reference', tool_name: name })),
              },
            },
            { type: 'tool_use', id: 'toolu_1', name: plan.found[0], input: plan.args },
          ]
      return {
        id: 'msg_scripted',
        type: 'message',
        role: 'assistant',
        model: 'claude-scripted',
        content,
        stop_reason: answered ? 'end_turn' : 'tool_use',
        stop_sequence: null,
        usage,
      }
    },
    events: () => [],
    error: anthropicProtocol.error,
    refuse: (request) => anthropicRefusal(request, plan),
  }
}

function anthropicRefusal(request: RecordedRequest, plan: NativeSearchPlan): string | undefined {
  const tools = (request.body.tools ?? []) as Json[]
  const search = tools.filter((tool) => tool.type === 'tool_search_tool_bm25_20251119')
  if (search.length !== 1 || search[0]?.name !== 'tool_search_tool_bm25') {
    return 'tools: expected one {"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"}'
  }
  const problem = deferralProblem(
    tools.filter((tool) => 'input_schema' in tool),
    plan,
  )
  if (problem !== undefined) return problem
  for (const message of request.body.messages as Json[]) {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) continue
    const blocks = message.content as Json[]
    const loaded = blocks
      .filter((block) => block.type === 'tool_search_tool_result')
      .flatMap((block) =>
        ((block.content as Json).tool_references as Json[]).map((reference) => reference.tool_name),
      )
    const searched = blocks.some(
      (block) => block.type === 'server_tool_use' && block.name === 'tool_search_tool_bm25',
    )
    for (const block of blocks) {
      if (block.type !== 'tool_use' || plan.pinned.includes(String(block.name))) continue
      if (!searched || !loaded.includes(block.name)) {
        return `messages: tool_use of deferred tool ${String(block.name)} without the tool search that loaded it`
      }
    }
  }
  return undefined
}

/** OpenAI Responses' hosted `tool_search` over `defer_loading` functions. */
export function openaiToolSearch(plan: NativeSearchPlan): WireProtocol {
  return {
    isStream: () => false,
    json: (_step, request) => {
      const input = request.body.input as Json[]
      const answered = input.some((item) => item.type === 'function_call_output')
      const tools = (request.body.tools as Json[]).filter((tool) => plan.found.includes(String(tool.name)))
      const output = answered
        ? [
            {
              type: 'message',
              id: 'msg_1',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: 'done', annotations: [] }],
            },
          ]
        : [
            {
              type: 'tool_search_call',
              id: 'tsc_1',
              execution: 'server',
              call_id: null,
              status: 'completed',
              arguments: { query: 'stock price' },
            },
            {
              type: 'tool_search_output',
              id: 'tso_1',
              execution: 'server',
              call_id: null,
              status: 'completed',
              tools,
            },
            {
              type: 'function_call',
              id: 'fc_1',
              call_id: 'call_1',
              name: plan.found[0],
              arguments: JSON.stringify(plan.args),
              status: 'completed',
            },
          ]
      return {
        id: answered ? 'resp_2' : 'resp_1',
        object: 'response',
        created_at: 1_700_000_000,
        status: 'completed',
        model: 'gpt-scripted',
        error: null,
        incomplete_details: null,
        output,
        usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
      }
    },
    events: () => [],
    error: openaiResponsesProtocol.error,
    refuse: (request) => openaiRefusal(request, plan),
  }
}

function openaiRefusal(request: RecordedRequest, plan: NativeSearchPlan): string | undefined {
  const tools = (request.body.tools ?? []) as Json[]
  if (tools.filter((tool) => tool.type === 'tool_search').length !== 1)
    return 'tools: expected one {"type":"tool_search"}'
  const problem = deferralProblem(
    tools.filter((tool) => tool.type === 'function'),
    plan,
  )
  if (problem !== undefined) return problem
  const input = request.body.input as Json[]
  const called = input.some((item) => item.type === 'function_call_output')
  // The search items go back (by reference, as the response is stored) before the call they loaded.
  const referenced = input.filter((item) => item.type === 'item_reference').map((item) => item.id)
  if (called && !(referenced.includes('tsc_1') && referenced.includes('tso_1'))) {
    return 'input: the call of a deferred function without the tool_search_call and tool_search_output that loaded it'
  }
  return undefined
}

/** Every tool but the pinned ones must be deferred, and the pinned ones must not be. */
function deferralProblem(functions: Json[], plan: NativeSearchPlan): string | undefined {
  if (functions.length === 0) return 'tools: no function tools'
  for (const tool of functions) {
    const pinned = plan.pinned.includes(String(tool.name))
    if (pinned && tool.defer_loading !== undefined)
      return `tools: ${String(tool.name)} is always loaded, not deferred`
    if (!pinned && tool.defer_loading !== true)
      return `tools: ${String(tool.name)} lacks "defer_loading": true`
  }
  return undefined
}
