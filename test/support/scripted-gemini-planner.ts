// A stand-in for Gemini that decides what to do from what it is sent — not a canned transcript. Given a
// user question it calls the declared functions whose names and descriptions share words with the
// question, with arguments drawn from the question and shaped by each declaration's parameter schema; given
// function responses it answers in text from them. Like Gemini 3 it signs the first function call of a
// turn, and the scripted server refuses the next request if that signature does not come back.
import type {
  GeminiContentJson,
  GeminiPartJson,
  GeminiReply,
  GeminiRequestJson,
  JsonObject,
  RecordedGeminiRequest,
} from './scripted-gemini.js'
import { responseBody, streamReply } from './scripted-gemini.js'

type Declaration = NonNullable<
  NonNullable<GeminiRequestJson['tools']>[number]['functionDeclarations']
>[number]

const STOP_WORDS = new Set([
  'what',
  'which',
  'with',
  'from',
  'that',
  'this',
  'have',
  'does',
  'there',
  'about',
  'please',
  'tool',
  'tools',
  'given',
  'returns',
  'return',
])

/**
 * A script function for `startScriptedGemini` that plans like a (very literal) model.
 *
 * @example
 * await using gemini = await startScriptedGemini({ script: createGeminiPlanner() })
 */
export function createGeminiPlanner(): (request: RecordedGeminiRequest) => GeminiReply {
  let signatures = 0
  return (request) => {
    const contents = request.body.contents
    const last = contents.at(-1)
    const usage = { promptTokenCount: countWords(contents), candidatesTokenCount: 0, totalTokenCount: 0 }
    const reply = (parts: GeminiPartJson[]): GeminiReply => {
      usage.candidatesTokenCount = countWords([{ parts }])
      usage.totalTokenCount = usage.promptTokenCount + usage.candidatesTokenCount
      if (!request.stream) return { kind: 'response', body: responseBody(parts, { usage }) }
      // Stream text word by word; anything else (calls, signatures) comes whole, as Gemini does.
      const chunks: GeminiPartJson[][] = []
      for (const part of parts) {
        if (typeof part.text === 'string' && part.thoughtSignature === undefined) {
          for (const word of part.text.match(/\S+\s*/g) ?? []) chunks.push([{ text: word }])
        } else chunks.push([part])
      }
      return streamReply(chunks, { usage })
    }

    const answers = (last?.parts ?? []).filter((part) => part.functionResponse !== undefined)
    if (answers.length > 0) {
      const lines = answers.map((part) => {
        const response = part.functionResponse?.response ?? {}
        const full = 'error' in response ? `failed: ${String(response.error)}` : String(response.output)
        // A model summarises; one line of each result is enough to show it read them.
        const said = full.length > 120 ? `${full.replace(/\s+/g, ' ').slice(0, 117)}…` : full
        return `${part.functionResponse?.name} → ${said}`
      })
      signatures += 1
      // Gemini 3 may sign a text answer on a trailing empty part; send it back like one.
      return reply([
        { text: `Here is what the tools said:\n${lines.join('\n')}` },
        { text: '', thoughtSignature: signature(signatures) },
      ])
    }

    const question = (last?.parts ?? []).map((part) => part.text ?? '').join(' ')
    const declarations = request.body.tools?.flatMap((tool) => tool.functionDeclarations ?? []) ?? []
    const chosen = chooseDeclarations(question, declarations)
    if (chosen.length === 0) {
      const offer =
        declarations.length === 0
          ? 'I have no tools.'
          : `I can use: ${declarations.map((d) => d.name).join(', ')}.`
      return reply([{ text: `(offline Gemini) You asked: "${question}". ${offer}` }])
    }
    signatures += 1
    return reply(
      chosen.map((declaration, index) => ({
        functionCall: { name: declaration.name, args: argumentsFor(declaration, question) },
        // Gemini signs only the first call of a parallel turn.
        ...(index === 0 ? { thoughtSignature: signature(signatures) } : {}),
      })),
    )
  }
}

function signature(index: number): string {
  return Buffer.from(`scripted-gemini-signature-${index}`).toString('base64')
}

function words(text: string): string[] {
  // "2 + 3" asks for a sum as surely as the word does.
  const spelled = text.replace(/\d\s*\+\s*\d/g, ' sum add ')
  return (spelled.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter(
    (word) => (word.length >= 4 || word === 'sum' || word === 'add') && !STOP_WORDS.has(word),
  )
}

function countWords(contents: GeminiContentJson[]): number {
  return contents.reduce((sum, content) => sum + JSON.stringify(content.parts ?? []).split(/\s+|,/).length, 0)
}

/** The declarations sharing a word with the question (stems by prefix), best first, at most three. */
function chooseDeclarations(question: string, declarations: Declaration[]): Declaration[] {
  const asked = words(question)
  const related = (word: string): boolean =>
    asked.some((other) => other.startsWith(word.slice(0, 5)) || word.startsWith(other.slice(0, 5)))
  return declarations
    .map((declaration) => {
      const nameWords = words(declaration.name.replace(/[_-]/g, ' '))
      const score =
        2 * nameWords.filter(related).length + words(declaration.description ?? '').filter(related).length
      return { declaration, score }
    })
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 3)
    .map((entry) => entry.declaration)
}

/** Arguments for every required parameter (and every parameter of a small schema), from the question. */
function argumentsFor(declaration: Declaration, question: string): JsonObject {
  const schema = declaration.parameters ?? {}
  const properties = isObject(schema.properties) ? schema.properties : {}
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name) => typeof name === 'string')
    : []
  const names = Object.keys(properties)
  const wanted = names.length <= 3 ? names : required
  const numbers = (question.match(/-?\d+(\.\d+)?/g) ?? []).map(Number)
  const quoted = [...question.matchAll(/"([^"]+)"|'([^']+)'/g)].map((match) => match[1] ?? match[2] ?? '')
  const unquoted = question.replace(/"[^"]*"|'[^']*'/g, ' ')
  // Capitalised words that do not start a sentence: names of places and people.
  const properNouns = [...unquoted.matchAll(/(?<![.?!]\s|^)\b([A-Z][a-zA-Z]+)\b/g)].map(
    (match) => match[1] ?? '',
  )
  const args: JsonObject = {}
  for (const name of wanted) {
    const property = properties[name]
    if (!isObject(property)) continue
    const type = String(property.type ?? 'string').toLowerCase()
    if (Array.isArray(property.enum) && property.enum.length > 0) args[name] = property.enum[0]
    else if (type === 'number' || type === 'integer') args[name] = numbers.shift() ?? 1
    else if (type === 'boolean') args[name] = true
    else if (type === 'array') args[name] = []
    else if (type === 'object') args[name] = {}
    else {
      // A word of the question the declaration itself names (a skill listed in its description), then a
      // quoted phrase for free text, then a proper noun, then the question's last word.
      const named = knownWord(
        question,
        `${declaration.description ?? ''} ${String(property.description ?? '')}`,
      )
      const freeText = /message|text|query|content|input|prompt/i.test(name)
      args[name] =
        named ??
        (freeText ? quoted.shift() : undefined) ??
        properNouns.shift() ??
        quoted.shift() ??
        question
          .split(/\s+/)
          .at(-1)
          ?.replace(/[?.!]$/, '') ??
        ''
    }
  }
  return args
}

/** A hyphenated or long word that appears both in the question and in the declaration's text. */
function knownWord(question: string, declarationText: string): string | undefined {
  const offered = new Set(declarationText.toLowerCase().match(/[a-z0-9]+(?:-[a-z0-9]+)+/g) ?? [])
  return question
    .toLowerCase()
    .match(/[a-z0-9]+(?:-[a-z0-9]+)+/g)
    ?.find((word) => offered.has(word))
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
