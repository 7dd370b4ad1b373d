// The script the bench's model endpoints play, kept apart from the HTTP server so tests can read it: a fresh
// question → two parallel tool calls; both tool results back → the final answer. It checks what it gets: a
// result that is missing, mismatched or without the tool's output turns the answer into a `BENCH-ERROR`,
// which fails the run that sent it.

import { CITY, EXPECTED_ANSWER, TIME_MARKER, TIME_TOOL, WEATHER_MARKER, WEATHER_TOOL } from '../scenario.js'

/** What the script decided for one request. */
export type Decision =
  | { kind: 'calls'; weatherName: string; timeName: string }
  | { kind: 'answer'; text: string }

const WEATHER_CALL_ID = 'call_weather'
const TIME_CALL_ID = 'call_time'
const ARGUMENTS = { city: CITY }
const USAGE_OPENAI = { prompt_tokens: 60, completion_tokens: 20, total_tokens: 80 }
const USAGE_GEMINI = { promptTokenCount: 60, candidatesTokenCount: 20, totalTokenCount: 80 }
// A Gemini 3 model signs its first parallel call; a loop must send the part back with it untouched.
const THOUGHT_SIGNATURE = 'YmVuY2gtc2lnbmF0dXJl'

function pickToolNames(names: string[]): Decision {
  const weatherName = names.find((name) => name.endsWith(WEATHER_TOOL.name))
  const timeName = names.find((name) => name.endsWith(TIME_TOOL.name))
  if (weatherName === undefined || timeName === undefined) {
    return { kind: 'answer', text: `BENCH-ERROR: tools not declared, got [${names.join(', ')}]` }
  }
  return { kind: 'calls', weatherName, timeName }
}

function checkResults(results: Array<{ key: string; text: string }>, keys: [string, string]): Decision {
  const [weatherKey, timeKey] = keys
  const weather = results.filter((result) => result.key === weatherKey)
  const time = results.filter((result) => result.key === timeKey)
  if (results.length !== 2 || weather.length !== 1 || time.length !== 1) {
    return {
      kind: 'answer',
      text: `BENCH-ERROR: expected one result per call, got [${results.map((result) => result.key).join(', ')}]`,
    }
  }
  if (!weather[0]!.text.includes(WEATHER_MARKER) || !time[0]!.text.includes(TIME_MARKER)) {
    return { kind: 'answer', text: `BENCH-ERROR: tool output lost: ${JSON.stringify(results)}` }
  }
  return { kind: 'answer', text: EXPECTED_ANSWER }
}

function textOf(content: unknown): string {
  return typeof content === 'string' ? content : JSON.stringify(content)
}

/** The part of a Chat Completions message the script reads. */
export interface OpenAIMessage {
  role: string
  content?: unknown
  tool_call_id?: string
}

/** The part of a Chat Completions request the script reads. */
export interface OpenAIRequest {
  model?: string
  messages?: OpenAIMessage[]
  tools?: Array<{ function?: { name?: string } }>
  stream?: boolean
  stream_options?: { include_usage?: boolean }
}

/** Tool calls for a fresh question; the answer (or a `BENCH-ERROR`) once tool messages follow it. */
export function decideOpenAI(request: OpenAIRequest): Decision {
  const messages = request.messages ?? []
  // The library targets ES2022 (no findLastIndex), and the root typecheck reads this file through the tests.
  const lastUser = messages.map((message) => message.role).lastIndexOf('user')
  const toolMessages = messages.slice(lastUser + 1).filter((message) => message.role === 'tool')
  if (toolMessages.length === 0) {
    return pickToolNames((request.tools ?? []).map((tool) => tool.function?.name ?? ''))
  }
  return checkResults(
    toolMessages.map((message) => ({ key: message.tool_call_id ?? '', text: textOf(message.content) })),
    [WEATHER_CALL_ID, TIME_CALL_ID],
  )
}

/** One tool call in a Chat Completions response. */
export interface OpenAIToolCall {
  id: string
  type: 'function'
  function: { name: string; arguments: string }
}

function openAIToolCalls(decision: Extract<Decision, { kind: 'calls' }>): OpenAIToolCall[] {
  return [
    { id: WEATHER_CALL_ID, name: decision.weatherName },
    { id: TIME_CALL_ID, name: decision.timeName },
  ].map(({ id, name }) => ({
    id,
    type: 'function',
    function: { name, arguments: JSON.stringify(ARGUMENTS) },
  }))
}

/** A reply to send: a JSON body or SSE `data:` payloads; `failed` when the exchange broke the script. */
export type ScriptedReply = ({ kind: 'json'; body: unknown } | { kind: 'sse'; events: string[] }) & {
  failed: boolean
}

function failed(decision: Decision): boolean {
  return decision.kind === 'answer' && decision.text !== EXPECTED_ANSWER
}

/** The Chat Completions reply to a request (`sequence` numbers the response id). */
export function openAIReply(request: OpenAIRequest, sequence: number): ScriptedReply {
  const decision = decideOpenAI(request)
  const base = { id: `chatcmpl-bench-${sequence}`, created: 1_700_000_000, model: request.model ?? '' }
  const finishReason = decision.kind === 'calls' ? 'tool_calls' : 'stop'
  if (request.stream !== true) {
    const message =
      decision.kind === 'calls'
        ? {
            role: 'assistant',
            content: null,
            tool_calls: openAIToolCalls(decision),
          }
        : { role: 'assistant', content: decision.text }
    return {
      kind: 'json',
      body: {
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
        usage: USAGE_OPENAI,
      },
      failed: failed(decision),
    }
  }
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): unknown => ({
    ...base,
    object: 'chat.completion.chunk',
    choices,
    ...extra,
  })
  const delta =
    decision.kind === 'calls'
      ? { tool_calls: openAIToolCalls(decision).map((call, index) => ({ index, ...call })) }
      : { content: decision.text }
  const events = [
    chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
    chunk([{ index: 0, delta, finish_reason: null }]),
    chunk([{ index: 0, delta: {}, finish_reason: finishReason }]),
  ]
  if (request.stream_options?.include_usage === true) events.push(chunk([], { usage: USAGE_OPENAI }))
  return {
    kind: 'sse',
    events: [...events.map((event) => JSON.stringify(event)), '[DONE]'],
    failed: failed(decision),
  }
}

/** The part of a Gemini `Part` the script reads. */
export interface GeminiPart {
  text?: string
  functionCall?: { name?: string }
  functionResponse?: { name?: string; id?: string; response?: unknown }
}

/** The part of a generateContent request the script reads. */
export interface GeminiRequest {
  contents?: Array<{ role?: string; parts?: GeminiPart[] }>
  tools?: Array<{ functionDeclarations?: Array<{ name?: string }> }>
}

/** Function calls for a fresh question; the answer once the last turn holds the function responses. */
export function decideGemini(request: GeminiRequest): Decision {
  const contents = request.contents ?? []
  const last = contents.at(-1)
  const responses = (last?.parts ?? []).flatMap((part) =>
    part.functionResponse === undefined ? [] : [part.functionResponse],
  )
  const names = (request.tools ?? []).flatMap((tool) =>
    (tool.functionDeclarations ?? []).map((declaration) => declaration.name ?? ''),
  )
  const decision = pickToolNames(names)
  if (responses.length === 0) return decision
  if (decision.kind === 'answer') return decision
  // The model turn must come back verbatim, signature included, or Gemini 3 rejects the request.
  const modelTurn = contents.at(-2)
  if (
    modelTurn?.parts?.[0] === undefined ||
    !JSON.stringify(modelTurn.parts[0]).includes(THOUGHT_SIGNATURE)
  ) {
    return { kind: 'answer', text: 'BENCH-ERROR: the model turn lost its thoughtSignature' }
  }
  return checkResults(
    responses.map((functionResponse) => ({
      key: functionResponse.name ?? '',
      text: textOf(functionResponse.response),
    })),
    [decision.weatherName, decision.timeName],
  )
}

/** The generateContent reply (one SSE event when `streaming`); `sequence` numbers the response id. */
export function geminiReply(
  request: GeminiRequest,
  options: { model: string; streaming: boolean; sequence: number },
): ScriptedReply {
  const decision = decideGemini(request)
  const parts =
    decision.kind === 'calls'
      ? [
          {
            functionCall: { name: decision.weatherName, args: ARGUMENTS },
            thoughtSignature: THOUGHT_SIGNATURE,
          },
          { functionCall: { name: decision.timeName, args: ARGUMENTS } },
        ]
      : [{ text: decision.text }]
  const body = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: USAGE_GEMINI,
    modelVersion: options.model,
    responseId: `bench-${options.sequence}`,
  }
  return options.streaming
    ? { kind: 'sse', events: [JSON.stringify(body)], failed: failed(decision) }
    : { kind: 'json', body, failed: failed(decision) }
}
