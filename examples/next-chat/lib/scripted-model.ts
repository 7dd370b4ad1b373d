// A small offline LanguageModel (AI SDK specification v4) so the example runs with no API key. It is not
// a canned transcript: it reads what it receives — the conversation and the tools it is offered — and
// picks tool calls from them, or answers from the tool results that came back. Web APIs only (edge-safe).
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider'

type Message = LanguageModelV4Prompt[number]
type ToolCall = { toolName: string; input: Record<string, unknown> }
/** What the scripted model answers: text, and the tool calls it makes. */
export type Reply = { text: string; toolCalls: ToolCall[] }

const NUMBER = String.raw`-?\d+(?:\.\d+)?`

/** The scripted model. `delayMs` spaces the streamed words out, so the page visibly streams. */
export function createScriptedModel({ delayMs = 15 }: { delayMs?: number } = {}): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider: 'toolnexus-example',
    modelId: 'scripted',
    supportedUrls: {},
    async doGenerate(options) {
      const reply = decide(options)
      const content: LanguageModelV4Content[] = []
      if (reply.text !== '') content.push({ type: 'text', text: reply.text })
      for (const call of reply.toolCalls) {
        content.push({
          type: 'tool-call',
          toolCallId: newCallId(),
          toolName: call.toolName,
          input: JSON.stringify(call.input),
        })
      }
      return { content, finishReason: finishReason(reply), usage: usage(options.prompt, reply), warnings: [] }
    },
    async doStream(options) {
      const reply = decide(options)
      const words = reply.text.match(/\S+\s*/g) ?? []
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] })
          if (words.length > 0) {
            controller.enqueue({ type: 'text-start', id: 't0' })
            for (const word of words) {
              if (options.abortSignal?.aborted) break
              controller.enqueue({ type: 'text-delta', id: 't0', delta: word })
              await new Promise((resolve) => setTimeout(resolve, delayMs))
            }
            controller.enqueue({ type: 'text-end', id: 't0' })
          }
          for (const call of reply.toolCalls) {
            const toolCallId = newCallId()
            controller.enqueue({
              type: 'tool-call',
              toolCallId,
              toolName: call.toolName,
              input: JSON.stringify(call.input),
            })
          }
          controller.enqueue({
            type: 'finish',
            finishReason: finishReason(reply),
            usage: usage(options.prompt, reply),
          })
          controller.close()
        },
      })
      return { stream }
    },
  }
}

function decide({ prompt, tools = [] }: LanguageModelV4CallOptions): Reply {
  return scriptedReply(
    prompt,
    tools.flatMap((tool) => (tool.type === 'function' ? [tool.name] : [])),
  )
}

/** The scripted answer to a conversation, given the names of the tools offered (also lib/scripted-gemini.ts's). */
export function scriptedReply(prompt: LanguageModelV4Prompt, names: string[]): Reply {
  const last = prompt.at(-1)
  if (last?.role === 'tool') return { text: summarizeResults(last), toolCalls: [] }
  if (last?.role !== 'user') return { text: 'Ask me something.', toolCalls: [] }
  return planToolCalls(textOf(last), prompt, names)
}

/** Tool calls for what the user asked, matched against the tools actually offered. */
function planToolCalls(question: string, prompt: LanguageModelV4Prompt, names: string[]): Reply {
  const sumTool = names.find((name) => name === 'add' || name.endsWith('get-sum'))
  const echoTool = names.find((name) => name.endsWith('_echo'))
  const calls: ToolCall[] = []
  const notes: string[] = []

  if (/\b(double|twice)\b/i.test(question)) {
    // Needs the conversation's history: the last sum a tool returned in an earlier turn.
    const previous = lastNumberFromHistory(prompt, sumTool)
    if (previous === undefined || sumTool === undefined)
      notes.push('I have no earlier sum to double yet — ask me to add two numbers first.')
    else calls.push({ toolName: sumTool, input: { a: previous, b: previous } })
  }
  const sum = new RegExp(`(${NUMBER})\\s*(?:\\+|plus|and)\\s*(${NUMBER})`, 'i').exec(question)
  if (sum && sumTool) calls.push({ toolName: sumTool, input: { a: Number(sum[1]), b: Number(sum[2]) } })
  const order = /\border\b[^A-Za-z0-9]*(?:#|number|id)?\s*([A-Z]{0,3}-?\d+)/i.exec(question)
  if (order && names.includes('lookup_order'))
    calls.push({ toolName: 'lookup_order', input: { orderId: order[1] } })
  if (/\btime\b/i.test(question) && names.includes('current_time')) {
    const zone = /\b([A-Z][a-z]+\/[A-Za-z_]+)\b/.exec(question)
    calls.push({ toolName: 'current_time', input: zone ? { timeZone: zone[1] } : {} })
  }
  const echo = /\becho\s+["“]?(.+?)["”]?\s*$/i.exec(question)
  if (echo && echoTool) calls.push({ toolName: echoTool, input: { message: echo[1] } })
  const note = /\bdelete\b.*\bnote\b\s+["“]?([^"”]+?)["”]?\s*$/i.exec(question)
  if (note && names.includes('delete_note'))
    calls.push({ toolName: 'delete_note', input: { title: note[1] } })
  if (/\bskill\b/i.test(question) && names.includes('skill'))
    calls.push({ toolName: 'skill', input: { name: 'hello-world' } })

  if (calls.length > 0 || notes.length > 0) return { text: notes.join(' '), toolCalls: calls }
  const offered = names.length > 0 ? names.map((name) => `\`${name}\``).join(', ') : 'none'
  return {
    text:
      `I am the offline scripted model (set OPENAI_API_KEY, ANTHROPIC_API_KEY or GOOGLE_GENERATIVE_AI_API_KEY for a real one). ` +
      `Tools offered to me: ${offered}. Try “What is 12 + 30?”, then “Now double it”, ` +
      `“What time is it in Asia/Tokyo?”, “Look up order A-1042” or “Load the hello-world skill”.`,
    toolCalls: [],
  }
}

/** The answer once the tools have run: one line per result, failures said plainly. */
function summarizeResults(message: Extract<Message, { role: 'tool' }>): string {
  const lines = message.content.flatMap((part) => {
    if (part.type !== 'tool-result') return []
    const { output } = part
    const value =
      output.type === 'text' || output.type === 'error-text' ? output.value : JSON.stringify(output)
    const failed = output.type === 'error-text' || output.type === 'error-json'
    // toolnexus error texts already name the tool ("Tool "x" failed: …"); say it once.
    if (failed) return [`- \`${part.toolName}\` failed: ${value.replace(/^Tool "[^"]+" failed: /, '')}`]
    if (part.toolName === 'skill') {
      const heading = /^# (.+)$/m.exec(value)?.[1] ?? 'the skill'
      return [`- Loaded **${heading}**: its instructions are now in my context.`]
    }
    return [`- \`${part.toolName}\`: ${value}`]
  })
  const allFailed = lines.every((line) => line.includes('` failed: '))
  const lead = allFailed ? 'That did not work:' : 'Here is what I found:'
  const tail = allFailed ? '\n\nThe tool reported an error, so I cannot answer that right now.' : ''
  return `${lead}\n\n${lines.join('\n')}${tail}`
}

function lastNumberFromHistory(
  prompt: LanguageModelV4Prompt,
  toolName: string | undefined,
): number | undefined {
  for (const message of [...prompt].reverse()) {
    if (message.role !== 'tool') continue
    for (const part of [...message.content].reverse()) {
      if (part.type !== 'tool-result' || part.toolName !== toolName || part.output.type !== 'text') continue
      const numbers = part.output.value.match(new RegExp(NUMBER, 'g'))
      if (numbers) return Number(numbers.at(-1))
    }
  }
  return undefined
}

function textOf(message: Extract<Message, { role: 'user' }>): string {
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ')
}

function finishReason(reply: Reply): LanguageModelV4FinishReason {
  return reply.toolCalls.length > 0
    ? { unified: 'tool-calls', raw: 'tool_calls' }
    : { unified: 'stop', raw: 'stop' }
}

/** A rough count (four characters a token), so the usage figures are not all zero. */
function usage(prompt: LanguageModelV4Prompt, reply: Reply): LanguageModelV4Usage {
  const input = Math.ceil(JSON.stringify(prompt).length / 4)
  const output = Math.ceil((reply.text.length + JSON.stringify(reply.toolCalls).length) / 4)
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  }
}

function newCallId(): string {
  return `call_${crypto.randomUUID().slice(0, 8)}`
}
