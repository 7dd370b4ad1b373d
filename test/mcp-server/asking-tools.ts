// Tools of the test source server (conformance-source.ts) that ask the client for input the 2026-07-28
// way: each answers `input_required` with its requests, and the retry carries the answers. The SDK asks
// a 2025 client the same requests as server-to-client requests. The first four are the ones the
// conformance suite's 2025 scenarios call (as `test_<name>` through the gateway).
import {
  acceptedContent,
  inputRequired,
  inputResponse,
  type ServerContext,
} from '@modelcontextprotocol/server'

const NO_ARGS = { type: 'object' as const, properties: {} }

export const ASKING_TOOLS = [
  {
    name: 'sampling',
    description: 'Asks the client to sample an answer to `prompt`.',
    inputSchema: {
      type: 'object' as const,
      properties: { prompt: { type: 'string' } },
      required: ['prompt'],
    },
  },
  {
    name: 'elicitation',
    description: 'Asks the user for a user name and an email, showing `message`.',
    inputSchema: {
      type: 'object' as const,
      properties: { message: { type: 'string' } },
      required: ['message'],
    },
  },
  {
    name: 'elicitation_sep1034_defaults',
    description: 'Asks a form whose fields have defaults.',
    inputSchema: NO_ARGS,
  },
  { name: 'elicitation_sep1330_enums', description: 'Asks a form of every enum kind.', inputSchema: NO_ARGS },
  {
    name: 'ask_rounds',
    description:
      'Asks `questions` questions a round for `rounds` rounds (its state `pad` characters longer), then answers with the last answers.',
    inputSchema: {
      type: 'object' as const,
      properties: { rounds: { type: 'number' }, questions: { type: 'number' }, pad: { type: 'number' } },
      required: ['rounds', 'questions'],
    },
  },
  { name: 'list_roots', description: "Lists the client's roots.", inputSchema: NO_ARGS },
  { name: 'missing_capability', description: 'Asks for sampling, declared or not.', inputSchema: NO_ARGS },
  { name: 'streaming_elicitation', description: 'Asks a form while it runs.', inputSchema: NO_ARGS },
  { name: 'logging_tool', description: 'Logs, then answers.', inputSchema: NO_ARGS },
]

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] })

const USER_FORM = {
  type: 'object' as const,
  properties: {
    username: { type: 'string' as const, description: "User's response" },
    email: { type: 'string' as const, description: "User's email address" },
  },
  required: ['username', 'email'],
}

const DEFAULTS_FORM = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, default: 'John Doe' },
    age: { type: 'integer' as const, default: 30 },
    score: { type: 'number' as const, default: 95.5 },
    status: { type: 'string' as const, enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean' as const, default: true },
  },
}

const ENUMS_FORM = {
  type: 'object' as const,
  properties: {
    untitledSingle: { type: 'string' as const, enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string' as const,
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string' as const,
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array' as const,
      items: { type: 'string' as const, enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array' as const,
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
}

/** One form asked under `form`, then what the user answered. */
function askForm(ctx: ServerContext, message: string, requestedSchema: object, prefix: string) {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'form')
  if (answer.kind !== 'elicit') {
    return inputRequired({
      inputRequests: { form: inputRequired.elicit({ mode: 'form', message, requestedSchema } as never) },
    })
  }
  return text(`${prefix}: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`)
}

/** The answer of an asking tool, or `undefined` for a name that is not one. */
export function askingTool(name: string, args: Record<string, unknown>, ctx: ServerContext): unknown {
  switch (name) {
    case 'sampling': {
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'sample')
      if (answer.kind !== 'sampling') {
        return inputRequired({
          inputRequests: {
            sample: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }],
              maxTokens: 100,
            }),
          },
        })
      }
      const content = answer.result.content
      const said = !Array.isArray(content) && content.type === 'text' ? content.text : JSON.stringify(content)
      return text(`LLM response: ${said}`)
    }
    case 'elicitation':
      return askForm(ctx, String(args.message), USER_FORM, 'User response')
    case 'elicitation_sep1034_defaults':
      return askForm(ctx, 'Please review your details.', DEFAULTS_FORM, 'Elicitation completed')
    case 'elicitation_sep1330_enums':
      return askForm(ctx, 'Please pick your options.', ENUMS_FORM, 'Elicitation completed')
    case 'ask_rounds': {
      // The round it is on rides in its own request state (a test server's: not sealed).
      const state = ctx.mcpReq.requestState()
      const round = typeof state === 'string' ? Number(state.split(':')[1]) : 0
      const answers = Object.keys(ctx.mcpReq.inputResponses ?? {})
        .sort()
        .map((key) => acceptedContent(ctx.mcpReq.inputResponses, key)?.answer)
      if (round >= Number(args.rounds)) return text(`After ${round} rounds: ${JSON.stringify(answers)}`)
      const inputRequests = Object.fromEntries(
        Array.from({ length: Number(args.questions) }, (_, index) => [
          `q${index}`,
          inputRequired.elicit({
            mode: 'form',
            message: `Round ${round + 1}, question ${index + 1}?`,
            requestedSchema: {
              type: 'object',
              properties: { answer: { type: 'string' } },
              required: ['answer'],
            },
          } as never),
        ]),
      )
      // `pad` makes its state that many characters longer.
      const pad = 'x'.repeat(Number(args.pad ?? 0))
      return inputRequired({ inputRequests, requestState: `round:${round + 1}:${pad}` })
    }
    case 'list_roots': {
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'roots')
      if (answer.kind !== 'roots')
        return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } })
      return text(`Roots: ${answer.roots.map((root) => root.uri).join(', ')}`)
    }
    case 'streaming_elicitation':
      return askForm(ctx, 'Still there?', USER_FORM, 'Streamed elicitation')
    case 'logging_tool':
      return ctx.mcpReq.log('info', 'the logging tool ran').then(() => text('Logged.'))
    case 'missing_capability':
      // The SDK refuses this for a client without sampling (-32021) before it leaves the server.
      if (inputResponse(ctx.mcpReq.inputResponses, 'sample').kind === 'sampling') return text('Sampled.')
      return inputRequired({
        inputRequests: {
          sample: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'Anything.' } }],
            maxTokens: 10,
          }),
        },
      })
    default:
      return undefined
  }
}
