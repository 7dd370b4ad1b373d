// An offline stand-in for a real model, for the demo: a LanguageModel (specification v4) that reads the
// prompt and the tools it is given and decides what to call — it is not a recording. Ask it about the
// weather in a city, a sum like "2 + 3", to echo "something", or to use a skill listed in the system
// prompt, and it calls whichever of the given tools fits (by name, description and schema), then answers
// from the results it gets back.
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FunctionTool,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
} from '@ai-sdk/provider'

interface PlannedCall {
  toolName: string
  input: Record<string, unknown>
}

/**
 * A rule-following model: plans tool calls from the last user message and the declared tools, one phase
 * per turn (skills first, then everything else at once), and answers once every planned call is answered.
 *
 * @example
 * const client = createClient({ model: new ScriptedLanguageModel() })
 * await client.run('What is the weather in Chennai?', { toolkit })
 */
export class ScriptedLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4'
  readonly provider = 'toolnexus-demo'
  readonly modelId = 'scripted'
  readonly supportedUrls = {}
  #nextId = 0

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const content = this.#decide(options)
    return {
      content,
      finishReason: finishReason(content),
      usage: usage(options.prompt, content),
      warnings: [],
    }
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const content = this.#decide(options)
    const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }]
    for (const [index, part] of content.entries()) {
      if (part.type === 'text') {
        const id = `text-${index}`
        parts.push({ type: 'text-start', id })
        for (const word of part.text.split(/(?<= )/)) parts.push({ type: 'text-delta', id, delta: word })
        parts.push({ type: 'text-end', id })
      } else if (part.type === 'tool-call') {
        parts.push({ type: 'tool-input-start', id: part.toolCallId, toolName: part.toolName })
        parts.push({ type: 'tool-input-delta', id: part.toolCallId, delta: part.input })
        parts.push({ type: 'tool-input-end', id: part.toolCallId })
        parts.push(part)
      }
    }
    parts.push({ type: 'finish', finishReason: finishReason(content), usage: usage(options.prompt, content) })
    const signal = options.abortSignal
    return {
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          const part = parts.shift()
          if (part === undefined || signal?.aborted) return controller.close()
          // A little pacing, so the demo's stream visibly streams.
          if (part.type === 'text-delta') await new Promise((resolve) => setTimeout(resolve, 15))
          controller.enqueue(part)
        },
      }),
    }
  }

  #decide(options: LanguageModelV4CallOptions): LanguageModelV4Content[] {
    const { prompt } = options
    const tools = (options.tools ?? []).filter(
      (tool): tool is LanguageModelV4FunctionTool => tool.type === 'function',
    )
    const start = lastUserIndex(prompt)
    const question = userText(prompt[start])
    const done = new Set(
      prompt
        .slice(start + 1)
        .flatMap((message) => (message.role === 'assistant' ? message.content : []))
        .flatMap((part) => (part.type === 'tool-call' ? [callKey(part.toolName, part.input)] : [])),
    )
    const system = prompt
      .flatMap((message) => (message.role === 'system' ? [message.content] : []))
      .join('\n')
    for (const phase of plan(question, tools, system)) {
      const pending = phase.filter((call) => !done.has(callKey(call.toolName, call.input)))
      if (pending.length > 0) {
        return pending.map((call) => ({
          type: 'tool-call',
          toolCallId: `call_${++this.#nextId}`,
          toolName: call.toolName,
          input: JSON.stringify(call.input),
        }))
      }
    }
    return [{ type: 'text', text: answer(prompt.slice(start + 1), tools.length) }]
  }
}

/** The calls that answer `question` with these tools, in phases: skills first, then the rest at once. */
function plan(question: string, tools: LanguageModelV4FunctionTool[], system: string): PlannedCall[][] {
  const skills: PlannedCall[] = []
  const skillTool = tools.find((tool) => tool.name === 'skill')
  if (skillTool !== undefined) {
    for (const [, name] of system.matchAll(/^- \*\*([^*]+)\*\*:/gm)) {
      if (name !== undefined && question.toLowerCase().includes(name.toLowerCase())) {
        skills.push({ toolName: 'skill', input: { name } })
      }
    }
  }
  const rest: PlannedCall[] = []
  const city = /weather (?:in|for|at) ([A-Z][\p{L}-]*(?: [A-Z][\p{L}-]*)*)/u.exec(question)?.[1]
  const weather = city === undefined ? undefined : findTool(tools, /weather/i, 'string', 1)
  if (city !== undefined && weather !== undefined) {
    rest.push({ toolName: weather.tool.name, input: { [weather.properties[0] as string]: city } })
  }
  const sum = /(-?\d+(?:\.\d+)?)\s*\+\s*(-?\d+(?:\.\d+)?)/.exec(question)
  const adder = sum === null ? undefined : findTool(tools, /\b(sum|add)/i, 'number', 2)
  if (sum !== null && adder !== undefined) {
    const [first, second] = adder.properties as [string, string]
    rest.push({ toolName: adder.tool.name, input: { [first]: Number(sum[1]), [second]: Number(sum[2]) } })
  }
  const echo = /echo ["“']([^"”']+)["”']/i.exec(question)?.[1]
  const echoer = echo === undefined ? undefined : findTool(tools, /echo/i, 'string', 1)
  if (echo !== undefined && echoer !== undefined) {
    rest.push({ toolName: echoer.tool.name, input: { [echoer.properties[0] as string]: echo } })
  }
  return [skills, rest]
}

/** The first tool whose name or description matches, with at least `count` properties of `type`. */
function findTool(
  tools: LanguageModelV4FunctionTool[],
  pattern: RegExp,
  type: 'string' | 'number',
  count: number,
): { tool: LanguageModelV4FunctionTool; properties: string[] } | undefined {
  for (const tool of tools) {
    if (!pattern.test(`${tool.name} ${tool.description ?? ''}`)) continue
    const properties = Object.entries(
      (tool.inputSchema.properties ?? {}) as Record<string, { type?: unknown }>,
    )
      .filter(([, schema]) => schema.type === type || (type === 'number' && schema.type === 'integer'))
      .map(([name]) => name)
    if (properties.length >= count) return { tool, properties }
  }
  return undefined
}

/** The final answer, written from the tool results the model got back. */
function answer(since: LanguageModelV4Prompt, toolCount: number): string {
  const results = since
    .flatMap((message) => (message.role === 'tool' ? message.content : []))
    .flatMap((part) => (part.type === 'tool-result' ? [part] : []))
  if (results.length === 0) {
    return toolCount === 0
      ? 'I have no tools, so I can only say: hello!'
      : 'None of my tools fits that question. Try the weather in a city, a sum like 2 + 3, or echo "something".'
  }
  const lines = results.map((result) => {
    const output = result.output
    const text =
      output.type === 'text' || output.type === 'error-text' ? output.value : JSON.stringify(output)
    const failed = output.type === 'error-text' ? ' (failed)' : ''
    const firstLine = text.split('\n').find((line) => line.trim() !== '' && !line.startsWith('<')) ?? text
    return `- ${result.toolName}${failed}: ${firstLine.slice(0, 120)}`
  })
  return `Here is what my tools told me:\n${lines.join('\n')}`
}

function lastUserIndex(prompt: LanguageModelV4Prompt): number {
  for (let index = prompt.length - 1; index >= 0; index--) if (prompt[index]?.role === 'user') return index
  return 0
}

function userText(message: LanguageModelV4Prompt[number] | undefined): string {
  if (message?.role !== 'user') return ''
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ')
}

function callKey(toolName: string, input: unknown): string {
  return `${toolName}:${typeof input === 'string' ? input : JSON.stringify(input)}`
}

function finishReason(content: LanguageModelV4Content[]): LanguageModelV4GenerateResult['finishReason'] {
  return content.some((part) => part.type === 'tool-call')
    ? { unified: 'tool-calls', raw: 'tool_calls' }
    : { unified: 'stop', raw: 'stop' }
}

/** Roughly four characters a token, like the real thing. */
function usage(prompt: LanguageModelV4Prompt, content: LanguageModelV4Content[]): LanguageModelV4Usage {
  const input = Math.ceil(JSON.stringify(prompt).length / 4)
  const output = Math.ceil(JSON.stringify(content).length / 4)
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  }
}
