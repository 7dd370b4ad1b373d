// Tools, a prompt and a resource of the test source server (conformance-source.ts) that the conformance
// suite's 2026-07-28 input-required scenarios call (as `test_<name>` through the gateway): each answers
// `input_required` with the requests the scenario expects, then completes from the answers. The source's own request
// state is plain text here; the gateway seals its own around it.
import {
  acceptedContent,
  inputRequired,
  inputResponse,
  type ServerContext,
} from '@modelcontextprotocol/server'

const NO_ARGS = { type: 'object' as const, properties: {} }
const NAMES = [
  'elicitation',
  'sampling',
  'list_roots',
  'request_state',
  'multiple_inputs',
  'multi_round',
  'tampered_state',
  'capabilities',
]

export const INPUT_REQUIRED_TOOLS = NAMES.map((name) => ({
  name: `input_required_result_${name}`,
  description: `Asks for input as the conformance scenario for ${name} expects.`,
  inputSchema: NO_ARGS,
}))

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] })

function form(message: string, field: string, type: 'string' | 'boolean' = 'string') {
  return inputRequired.elicit({
    mode: 'form',
    message,
    requestedSchema: { type: 'object', properties: { [field]: { type } }, required: [field] },
  } as never)
}

const SAMPLE_CAPITAL = () =>
  inputRequired.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
    maxTokens: 100,
  })

/** The answer of one of these tools, or `undefined` for another name. */
export function inputRequiredTool(name: string, ctx: ServerContext): unknown {
  const responses = ctx.mcpReq.inputResponses
  const state = ctx.mcpReq.requestState()
  switch (name.replace('input_required_result_', '')) {
    case 'elicitation': {
      const answer = acceptedContent(responses, 'user_name')
      if (answer === undefined) {
        return inputRequired({ inputRequests: { user_name: form('What is your name?', 'name') } })
      }
      return text(`Hello, ${String(answer.name)}!`)
    }
    case 'sampling': {
      const answer = inputResponse(responses, 'capital_question')
      if (answer.kind !== 'sampling')
        return inputRequired({ inputRequests: { capital_question: SAMPLE_CAPITAL() } })
      const content = answer.result.content
      return text(!Array.isArray(content) && content.type === 'text' ? content.text : 'no text')
    }
    case 'list_roots': {
      const answer = inputResponse(responses, 'client_roots')
      if (answer.kind !== 'roots')
        return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } })
      return text(`Roots: ${answer.roots.map((root) => root.uri).join(', ')}`)
    }
    case 'request_state':
    case 'tampered_state': {
      if (state === 'confirm-asked' && acceptedContent(responses, 'confirm') !== undefined) {
        return text('Confirmed: state-ok')
      }
      return inputRequired({
        inputRequests: { confirm: form('Please confirm', 'ok', 'boolean') },
        requestState: 'confirm-asked',
      })
    }
    case 'multiple_inputs': {
      const keys = ['user_name', 'greeting', 'client_roots']
      if (state === 'all-asked' && keys.every((key) => inputResponse(responses, key).kind !== 'missing')) {
        return text(`Got ${keys.join(', ')}.`)
      }
      return inputRequired({
        inputRequests: {
          user_name: form('What is your name?', 'name'),
          greeting: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
            maxTokens: 50,
          }),
          client_roots: inputRequired.listRoots(),
        },
        requestState: 'all-asked',
      })
    }
    case 'multi_round': {
      if (state === 'round-2' && acceptedContent(responses, 'step2') !== undefined) {
        return text(`Favourite colour: ${String(acceptedContent(responses, 'step2')?.color)}.`)
      }
      if (state === 'round-1' && acceptedContent(responses, 'step1') !== undefined) {
        return inputRequired({
          inputRequests: { step2: form('Step 2: What is your favorite color?', 'color') },
          requestState: 'round-2',
        })
      }
      return inputRequired({
        inputRequests: { step1: form('Step 1: What is your name?', 'name') },
        requestState: 'round-1',
      })
    }
    case 'capabilities': {
      // Only what the client declared in this request's envelope is asked.
      const envelope: Record<string, unknown> | undefined = ctx.mcpReq.envelope
      const declared = (envelope?.['io.modelcontextprotocol/clientCapabilities'] ?? {}) as Record<
        string,
        unknown
      >
      if (Object.keys(responses ?? {}).length > 0) return text('Thanks.')
      const inputRequests: Record<string, ReturnType<typeof form>> = {}
      if (declared.elicitation !== undefined) inputRequests.user_name = form('What is your name?', 'name')
      if (declared.sampling !== undefined) inputRequests.capital_question = SAMPLE_CAPITAL()
      if (declared.roots !== undefined) inputRequests.client_roots = inputRequired.listRoots()
      return Object.keys(inputRequests).length === 0
        ? text('Nothing to ask.')
        : inputRequired({ inputRequests })
    }
    default:
      return undefined
  }
}

/** The prompt that asks what context it should use before it renders (round 1), then renders it. */
export const ASKING_PROMPT = {
  name: 'input_required_result_prompt',
  description: 'Asks what context to use, then renders a prompt with it.',
}

/** The resource that asks who reads it before it answers. */
export const ASKING_RESOURCE = {
  uri: 'test://asking',
  name: 'asking',
  description: 'Asks who is reading before it is read.',
  mimeType: 'text/plain',
}

/** The answer of the asking prompt, or `undefined` for another prompt. */
export function askingPrompt(name: string, ctx: ServerContext): unknown {
  if (name !== ASKING_PROMPT.name) return undefined
  const answer = acceptedContent(ctx.mcpReq.inputResponses, 'user_context')
  if (answer === undefined) {
    return inputRequired({
      inputRequests: { user_context: form('What context should the prompt use?', 'context') },
      requestState: 'context-asked',
    })
  }
  const state = ctx.mcpReq.requestState()
  return {
    messages: [
      {
        role: 'user',
        content: { type: 'text', text: `Context: ${String(answer.context)} (state ${String(state)})` },
      },
    ],
  }
}

/** The answer of the asking resource, or `undefined` for another URI. */
export function askingResource(uri: string, ctx: ServerContext): unknown {
  if (uri !== ASKING_RESOURCE.uri) return undefined
  const answer = acceptedContent(ctx.mcpReq.inputResponses, 'reader')
  if (answer === undefined) {
    return inputRequired({ inputRequests: { reader: form('Who is reading?', 'name') } })
  }
  return { contents: [{ uri, mimeType: 'text/plain', text: `Read by ${String(answer.name)}.` }] }
}
