// The model behind the documentation snippets: scripted OpenAI (Responses and Chat Completions) and
// Anthropic endpoints that plan from what they are sent. Asked a question, they call the declared tools
// whose names share a word with it (one call per file name in the question for a tool with one required
// string), with arguments shaped by each tool's schema; given tool results, they answer in text.
import { anthropicProtocol } from '../support/scripted-anthropic.js'
import { openaiChatProtocol, openaiResponsesProtocol } from '../support/scripted-openai.js'
import {
  type RecordedRequest,
  type ScriptedToolCall,
  type ScriptStep,
  startScriptedServer,
  type WireProtocol,
} from '../support/scripted-server.js'

interface Declared {
  name: string
  schema: { properties?: Record<string, { type?: unknown }>; required?: string[] }
}

/** What a request says, whatever its wire format. */
interface Turn {
  question: string
  answered: boolean
  tools: Declared[]
}

const GENERIC = new Set(['get', 'set', 'the', 'and', 'for', 'list', 'read', 'file', 'tool'])

function stem(word: string): string {
  return word.toLowerCase().replace(/e?s$/, '')
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((part) => (typeof part?.text === 'string' ? part.text : ''))
    .filter((text) => text !== '')
    .join(' ')
}

function readTurn(request: RecordedRequest): Turn {
  const body = request.body ?? {}
  if (request.path.endsWith('/responses')) {
    const input: Array<Record<string, unknown>> = Array.isArray(body.input) ? body.input : []
    const users = input.filter((item) => item.role === 'user')
    return {
      question: textOf(users.at(-1)?.content),
      answered: input.at(-1)?.type === 'function_call_output',
      tools: (body.tools ?? []).map((tool: { name: string; parameters: Declared['schema'] }) => ({
        name: tool.name,
        schema: tool.parameters ?? {},
      })),
    }
  }
  const messages: Array<Record<string, unknown>> = body.messages ?? []
  const last = messages.at(-1)
  const users = messages.filter((message) => message.role === 'user')
  if (request.path.endsWith('/messages')) {
    const content = Array.isArray(last?.content) ? last.content : []
    return {
      question: textOf(users.at(-1)?.content),
      answered: content.some((part: { type?: string }) => part.type === 'tool_result'),
      tools: (body.tools ?? []).map((tool: { name: string; input_schema: Declared['schema'] }) => ({
        name: tool.name,
        schema: tool.input_schema ?? {},
      })),
    }
  }
  return {
    question: textOf(users.at(-1)?.content),
    answered: last?.role === 'tool',
    tools: (body.tools ?? []).map((tool: { function: { name: string; parameters: Declared['schema'] } }) => ({
      name: tool.function.name,
      schema: tool.function.parameters ?? {},
    })),
  }
}

function argumentsFor(tool: Declared, question: string, file: string | undefined): Record<string, unknown> {
  const words = question.match(/[A-Z][a-z]+/g) ?? []
  const args: Record<string, unknown> = {}
  for (const name of tool.schema.required ?? []) {
    const type = tool.schema.properties?.[name]?.type
    if (type === 'number' || type === 'integer') args[name] = 1
    else if (type === 'boolean') args[name] = true
    else args[name] = file ?? words.at(-1) ?? question.slice(0, 40)
  }
  return args
}

/** The step a planning model takes for this request. */
export function plan(request: RecordedRequest, index: number): ScriptStep {
  const turn = readTurn(request)
  if (turn.answered || turn.tools.length === 0) return { type: 'reply', text: 'Done.' }
  const asked = new Set((turn.question.match(/[a-zA-Z]+/g) ?? []).map(stem))
  const files = turn.question.match(/\b[\w-]+\.[a-z]{2,4}\b/g) ?? []
  const calls: ScriptedToolCall[] = []
  for (const tool of turn.tools) {
    const words = tool.name.split(/[_-]/).map(stem)
    if (!words.some((word) => word.length >= 3 && !GENERIC.has(word) && asked.has(word))) continue
    const oneString = (tool.schema.required ?? []).length === 1
    for (const file of oneString && files.length > 1 ? files : [files[0]]) {
      const id = `call_${index}_${calls.length}`
      calls.push({ id, name: tool.name, arguments: JSON.stringify(argumentsFor(tool, turn.question, file)) })
    }
  }
  return calls.length === 0
    ? { type: 'reply', text: 'Done.' }
    : { type: 'reply', toolCalls: calls.slice(0, 4) }
}

/** Chat Completions on `/chat/completions`, Responses elsewhere. */
const openaiProtocol: WireProtocol = {
  isStream: (request) => request.body?.stream === true,
  json: (step, request) =>
    (request.path.endsWith('/chat/completions') ? openaiChatProtocol : openaiResponsesProtocol).json(
      step,
      request,
    ),
  events: (step, request) =>
    (request.path.endsWith('/chat/completions') ? openaiChatProtocol : openaiResponsesProtocol).events(
      step,
      request,
    ),
  error: openaiChatProtocol.error,
}

/** The planning endpoints, on loopback: `OPENAI_BASE_URL` and `ANTHROPIC_BASE_URL` for a snippet. */
export async function startDocsModels(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  const openai = await startScriptedServer({ protocol: openaiProtocol, script: plan })
  const anthropic = await startScriptedServer({ protocol: anthropicProtocol, script: plan })
  return {
    env: { OPENAI_BASE_URL: `${openai.url}/v1`, ANTHROPIC_BASE_URL: `${anthropic.url}/v1` },
    close: async () => {
      await Promise.all([openai.close(), anthropic.close()])
    },
  }
}
