import type { ModelMessage } from 'ai'
import { ConfigError } from '../errors.js'
import type {
  ProviderOptions,
  SpecDataContent,
  SpecFileData,
  SpecFilePart,
  SpecLanguageModel,
  SpecMessage,
  SpecToolCallPart,
} from './language-model-spec.js'
import { toSpecToolResultOutput } from './tool-result-media.js'

type SpecVersion = SpecLanguageModel['specificationVersion']

/**
 * Converts AI SDK `ModelMessage`s into a LanguageModel prompt of the given specification version: string
 * content becomes text parts, images become file parts, file data takes the version's shape (v4 tags it),
 * and empty assistant text is dropped because several providers reject empty text blocks. Every call
 * hands back a new array; an assistant or tool message already in the prompt's shape (as the loop's own
 * turns are) is in it as it is, not copied.
 *
 * @example
 * convertToLanguageModelPrompt({ messages: [{ role: 'user', content: 'Hi' }], version: 'v4' })
 * // [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]
 */
export function convertToLanguageModelPrompt(options: {
  messages: readonly ModelMessage[]
  version: SpecVersion
  /** What earlier calls of the run converted, so a long transcript is not converted again on every turn. */
  cache?: ConvertedPrompt
  /** The name a tool call and its result go to the provider under (the transcript keeps the tool's own). */
  toolName?: ((name: string) => string) | undefined
  /** A system prompt to lead with, before the messages. @default none */
  system?: string | undefined
}): SpecMessage[] {
  const { messages, version, cache, toolName, system } = options
  if (cache !== undefined) return cache.prompt(messages, version, toolName, system)
  const prompt: SpecMessage[] = system === undefined ? [] : [{ role: 'system', content: system }]
  for (const message of messages) {
    const converted = convertMessage(message, version, toolName)
    if (converted !== null) prompt.push(converted)
  }
  return prompt
}

/**
 * What one run's calls have converted of its transcript. The run's transcript only grows, so a turn
 * converts only the messages added since the last; each message is converted once per run, and a message
 * met again (in the messages a `beforeModel` hook hands over) is its conversion then.
 *
 * @example
 * const cache = new ConvertedPrompt()
 * convertToLanguageModelPrompt({ messages, version: 'v3', cache, system }) // converts every message
 * convertToLanguageModelPrompt({ messages, version: 'v3', cache, system }) // only those added since
 */
export class ConvertedPrompt {
  // The transcript converted by position (the first array the run sent), and how much of it.
  #source: readonly ModelMessage[] | undefined
  #count = 0
  // The prompt so far: the system message first when the run has one, then the conversions sent.
  #prompt: SpecMessage[] | undefined
  #led = false
  // The positions whose conversion is `null` (an empty assistant turn, left out of the prompt): rare.
  #dropped: number[] | undefined
  // Made only when a call's messages are another array (a `beforeModel` hook's): conversions by message.
  #byMessage: Map<ModelMessage, SpecMessage | null> | undefined

  /** The prompt for `messages`: a new array, of conversions made once. */
  prompt(
    messages: readonly ModelMessage[],
    version: SpecVersion,
    toolName: ((name: string) => string) | undefined,
    system: string | undefined,
  ): SpecMessage[] {
    // Made for each call, as it always was: only the transcript's messages are converted once per run.
    const lead: SpecMessage | undefined =
      system === undefined ? undefined : { role: 'system', content: system }
    this.#source ??= messages
    if (messages !== this.#source || messages.length < this.#count) {
      return this.#promptByMessage(messages, version, toolName, lead)
    }
    let prompt = this.#prompt
    if (prompt === undefined || this.#led !== (lead !== undefined)) {
      prompt = this.#sentSoFar(lead)
      this.#prompt = prompt
      this.#led = lead !== undefined
    } else if (lead !== undefined) prompt[0] = lead
    for (let index = this.#count; index < messages.length; index++) {
      const conversion = this.#conversion(messages[index] as ModelMessage, version, toolName)
      if (conversion !== null) prompt.push(conversion)
      else if (this.#dropped === undefined) this.#dropped = [index]
      else this.#dropped.push(index)
    }
    this.#count = messages.length
    // A new array for every call: what a provider keeps of one call's prompt stays as it was.
    return prompt.slice()
  }

  #conversion(
    message: ModelMessage,
    version: SpecVersion,
    toolName: ((name: string) => string) | undefined,
  ): SpecMessage | null {
    const byMessage = this.#byMessage
    if (byMessage === undefined) return convertMessage(message, version, toolName)
    let conversion = byMessage.get(message)
    if (conversion === undefined) {
      conversion = convertMessage(message, version, toolName)
      byMessage.set(message, conversion)
    }
    return conversion
  }

  /** The lead and the conversions of the transcript so far, in order. */
  #sentSoFar(lead: SpecMessage | undefined): SpecMessage[] {
    const sent: SpecMessage[] = lead === undefined ? [] : [lead]
    const prompt = this.#prompt
    if (prompt !== undefined)
      for (let index = this.#led ? 1 : 0; index < prompt.length; index++)
        sent.push(prompt[index] as SpecMessage)
    return sent
  }

  /** The prompt for messages that are not the run's transcript: each message looked up by itself. */
  #promptByMessage(
    messages: readonly ModelMessage[],
    version: SpecVersion,
    toolName: ((name: string) => string) | undefined,
    lead: SpecMessage | undefined,
  ): SpecMessage[] {
    let byMessage = this.#byMessage
    if (byMessage === undefined) {
      // What the transcript's calls converted counts here too.
      byMessage = new Map()
      const source = this.#source as readonly ModelMessage[]
      const prompt = this.#prompt ?? []
      const dropped = this.#dropped
      let sent = this.#led ? 1 : 0
      for (let index = 0; index < this.#count; index++) {
        const conversion = dropped?.includes(index) === true ? null : (prompt[sent++] as SpecMessage)
        const message = source[index] as ModelMessage
        if (!byMessage.has(message)) byMessage.set(message, conversion)
      }
      this.#byMessage = byMessage
    }
    const prompt: SpecMessage[] = lead === undefined ? [] : [lead]
    for (const message of messages) {
      const conversion = this.#conversion(message, version, toolName)
      if (conversion !== null) prompt.push(conversion)
    }
    return prompt
  }
}

function convertMessage(
  message: ModelMessage,
  version: SpecVersion,
  toolName: ((name: string) => string) | undefined,
): SpecMessage | null {
  const messageOptions = message.providerOptions
  switch (message.role) {
    case 'system':
      return withOptions({ role: 'system', content: message.content }, messageOptions)
    case 'user': {
      if (typeof message.content === 'string') {
        return withOptions<SpecMessage>(
          { role: 'user', content: [{ type: 'text', text: message.content }] },
          messageOptions,
        )
      }
      const content = message.content.map((part) => {
        switch (part.type) {
          case 'text':
            return withOptions({ type: 'text' as const, text: part.text }, part.providerOptions)
          case 'image':
            return withOptions(
              {
                type: 'file' as const,
                data: toFileData(part.image, version),
                // v4 accepts a bare top-level media type; earlier versions expect a wildcard subtype.
                mediaType: part.mediaType ?? (version === 'v4' ? 'image' : 'image/*'),
              },
              part.providerOptions,
            )
          case 'file':
            return filePart(part, version)
          default:
            return assertNever(part)
        }
      })
      return withOptions({ role: 'user', content }, messageOptions)
    }
    case 'assistant': {
      if (typeof message.content === 'string') {
        return message.content === ''
          ? null
          : withOptions<SpecMessage>(
              { role: 'assistant', content: [{ type: 'text', text: message.content }] },
              messageOptions,
            )
      }
      // The loop's own turns are in the prompt's shape already: sent as they are, not copied.
      if (toolName === undefined && isPromptShaped(message.content, isPromptAssistantPart))
        return message as SpecMessage
      const content: Extract<SpecMessage, { role: 'assistant' }>['content'] = []
      for (const part of message.content) {
        const options = 'providerOptions' in part ? part.providerOptions : undefined
        switch (part.type) {
          case 'text':
            if (part.text !== '') content.push(withOptions({ type: 'text', text: part.text }, options))
            break
          case 'reasoning':
            content.push(withOptions({ type: 'reasoning', text: part.text }, options))
            break
          case 'file':
            content.push(filePart(part, version))
            break
          case 'tool-call': {
            const call: SpecToolCallPart = {
              type: 'tool-call',
              toolCallId: part.toolCallId,
              // A call the provider ran itself keeps the provider's name for its tool.
              toolName:
                toolName === undefined || part.providerExecuted === true
                  ? part.toolName
                  : toolName(part.toolName),
              input: part.input,
            }
            if (part.providerExecuted !== undefined) call.providerExecuted = part.providerExecuted
            content.push(withOptions(call, options))
            break
          }
          case 'tool-result':
            content.push({ ...part })
            break
          default:
            // Custom and reasoning-file parts exist only from v4 on; approval requests never reach a model.
            if (version === 'v4' && part.type !== 'tool-approval-request') content.push({ ...part })
        }
      }
      return content.length === 0 ? null : withOptions({ role: 'assistant', content }, messageOptions)
    }
    case 'tool': {
      // The loop's tool results with text outputs are in the prompt's shape already: sent as they are.
      if (toolName === undefined && isPromptShaped(message.content, promptToolParts[version]))
        return message as SpecMessage
      // v2 takes results only; the others take every part.
      const parts = version === 'v2' ? message.content.filter(isToolResult) : message.content
      return parts.length === 0
        ? null
        : withOptions(
            { role: 'tool', content: parts.map((part) => copyToolPart(part, version, toolName)) },
            messageOptions,
          )
    }
    default:
      return assertNever(message)
  }
}

type ToolMessagePart = Exclude<Extract<ModelMessage, { role: 'tool' }>['content'], string>[number]
type AssistantMessagePart = Exclude<Extract<ModelMessage, { role: 'assistant' }>['content'], string>[number]

/** Whether a message's parts are all as the prompt takes them (and it has some): then it is sent as is. */
function isPromptShaped<Part>(parts: readonly Part[], isPromptPart: (part: Part) => boolean): boolean {
  if (parts.length === 0) return false
  for (const part of parts) if (!isPromptPart(part)) return false
  return true
}

/** An assistant part the prompt takes as it is: text that is not empty, reasoning, a call or its result. */
function isPromptAssistantPart(part: AssistantMessagePart): boolean {
  switch (part.type) {
    case 'text':
      return part.text !== ''
    case 'reasoning':
    case 'tool-call':
    case 'tool-result':
      return true
    default:
      return false
  }
}

/** Which tool message parts each version's prompt takes as they are (media outputs change shape). */
const promptToolParts = {
  v2: (part: ToolMessagePart) => part.type === 'tool-result' && part.output.type !== 'content',
  v3: () => true,
  v4: (part: ToolMessagePart) => part.type !== 'tool-result' || part.output.type !== 'content',
}

function isToolResult(part: ToolMessagePart): boolean {
  return part.type === 'tool-result'
}

/** A tool message's part, copied; a result is spelled out, because a spread copy is slow in V8. */
function copyToolPart(
  part: ToolMessagePart,
  version: SpecVersion,
  toolName: ((name: string) => string) | undefined,
): ToolMessagePart {
  if (part.type !== 'tool-result') return { ...part }
  const copy: ToolMessagePart = {
    type: 'tool-result',
    toolCallId: part.toolCallId,
    toolName: toolName === undefined ? part.toolName : toolName(part.toolName),
    // Media parts take the version's shape; text outputs pass as they are.
    output: (part.output.type === 'content'
      ? toSpecToolResultOutput(part.output, version)
      : part.output) as typeof part.output,
  }
  return withOptions(copy, part.providerOptions)
}

function filePart(
  part: { data: unknown; mediaType: string; filename?: string; providerOptions?: ProviderOptions },
  version: SpecVersion,
): SpecFilePart {
  const file: SpecFilePart = { type: 'file', data: toFileData(part.data, version), mediaType: part.mediaType }
  if (part.filename !== undefined) file.filename = part.filename
  return withOptions(file, part.providerOptions)
}

/** `value` with its `providerOptions` set when there are any (no key at all otherwise). */
function withOptions<const Value extends object>(
  value: Value,
  providerOptions: ProviderOptions | undefined,
): Value {
  if (providerOptions !== undefined)
    (value as { providerOptions?: ProviderOptions }).providerOptions = providerOptions
  return value
}

const FILE_DATA_TAGS = new Set(['data', 'url', 'reference', 'text'])

/** File data in the shape the version expects; v4 tags every form, v2/v3 take bytes, base64 or a URL. */
function toFileData(value: unknown, version: SpecVersion): SpecDataContent | SpecFileData {
  const tagged = toTaggedFileData(value)
  if (version === 'v4') return tagged
  switch (tagged.type) {
    case 'data':
      return tagged.data
    case 'url':
      return tagged.url
    case 'text':
      return new TextEncoder().encode(tagged.text)
    case 'reference':
      throw new ConfigError(
        `A file given as a provider reference needs a v4 LanguageModel; this model is ${version}. Pass the file's bytes or URL instead.`,
      )
    default:
      return assertNever(tagged)
  }
}

function toTaggedFileData(value: unknown): SpecFileData {
  if (value instanceof URL) return { type: 'url', url: value }
  if (value instanceof Uint8Array) return { type: 'data', data: value }
  if (value instanceof ArrayBuffer) return { type: 'data', data: new Uint8Array(value) }
  if (typeof value === 'string') {
    // Like the AI SDK: an http(s) or data URL stays a URL, anything else is base64.
    if (/^(https?|data):/i.test(value)) {
      try {
        return { type: 'url', url: new URL(value) }
      } catch {
        return { type: 'data', data: value }
      }
    }
    return { type: 'data', data: value }
  }
  if (typeof value === 'object' && value !== null) {
    const tag = (value as { type?: unknown }).type
    if (typeof tag === 'string' && FILE_DATA_TAGS.has(tag)) {
      const tagged = value as SpecFileData
      return tagged.type === 'data' ? { type: 'data', data: toTaggedBytes(tagged.data) } : tagged
    }
    return { type: 'reference', reference: value as Record<string, string> }
  }
  throw new ConfigError(
    `A file part's data must be bytes, base64 text, a URL or a provider reference; got ${typeof value}.`,
  )
}

function toTaggedBytes(data: unknown): Uint8Array | string {
  if (data instanceof ArrayBuffer) return new Uint8Array(data)
  return data as Uint8Array | string
}

function assertNever(value: never): never {
  throw new ConfigError(`Unsupported message part: ${JSON.stringify(value)}`)
}
