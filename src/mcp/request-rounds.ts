// A `prompts/get` or `resources/read` whose 2026-07-28 server asks for input in its answer, when the
// request is served on to a caller up the line (a gateway): the server's input requests go up through
// the request's round instead of the host's handlers, and the request is sent again with the answers.

import {
  CLIENT_CAPABILITIES_META_KEY,
  type Client,
  type GetPromptResult,
  MissingRequiredClientCapabilityError,
  type ReadResourceResult,
} from '@modelcontextprotocol/client'
import { isRecord } from '../shared/is-record.js'
import type { ToolInputRequest, ToolInputRound } from '../tool/types.js'

// Bounds a server that keeps asking for more input before it answers one request.
const MAX_INPUT_ROUNDS = 8

/**
 * What a request that handed a round of input up to its caller rejects with: the caller answers in a
 * later request, so this one ends here. It is no failure of the server's session.
 */
export class RoundHandedUp extends Error {
  constructor(cause: unknown) {
    super('The request waits for its caller to answer a round of input.', { cause })
    this.name = 'RoundHandedUp'
  }
}

/**
 * Sends `method` with `params` on a 2026-07-28 session, its server's input requests handed up through
 * `round`: resumed with the caller's answers when the request is a retry, each `input_required` answer
 * asked of the caller and sent again with its responses, at most eight times. The server is offered only
 * the capabilities the caller declared; a refusal for one it lacks is reported through `round`.
 *
 * @example
 * const result = await requestWithRounds({ client, method: 'prompts/get', params: { name }, round, timeoutMs })
 */
async function requestWithRounds(options: {
  client: Client
  method: 'prompts/get' | 'resources/read'
  params: Record<string, unknown>
  round: ToolInputRound
  timeoutMs: number
}): Promise<unknown> {
  const { client, method, params, round } = options
  const deadline = Date.now() + options.timeoutMs
  const meta = { _meta: { [CLIENT_CAPABILITIES_META_KEY]: offeredCapabilities(round) } }
  const send = async (resume: Record<string, unknown>): Promise<unknown> => {
    try {
      return await client.request({ method, params: { ...params, ...resume, ...meta } } as never, {
        timeout: Math.max(1, deadline - Date.now()),
        allowInputRequired: true,
      })
    } catch (error) {
      if (error instanceof MissingRequiredClientCapabilityError) {
        round.missingCapabilities(error.requiredCapabilities as Record<string, unknown>)
      }
      throw error
    }
  }
  const { resumed } = round
  let answer = await send(
    resumed === undefined
      ? {}
      : {
          inputResponses: resumed.responses,
          ...(resumed.state !== undefined && { requestState: resumed.state }),
        },
  )
  for (let rounds = 0; isRecord(answer) && answer.resultType === 'input_required'; rounds++) {
    if (rounds >= MAX_INPUT_ROUNDS) {
      throw new Error(`the server asked for input more than ${MAX_INPUT_ROUNDS} times in one request`)
    }
    const requests = (isRecord(answer.inputRequests) ? answer.inputRequests : {}) as Record<
      string,
      ToolInputRequest
    >
    const state = typeof answer.requestState === 'string' ? answer.requestState : undefined
    let responses: Record<string, unknown>
    try {
      responses = await round.ask(requests, state)
    } catch (error) {
      throw new RoundHandedUp(error)
    }
    answer = await send({ inputResponses: responses, ...(state !== undefined && { requestState: state }) })
  }
  return answer
}

/** What the caller up the line can answer, offered to the server for this request. */
function offeredCapabilities(round: ToolInputRound): Record<string, unknown> {
  const offered: Record<string, unknown> = {}
  for (const key of ['elicitation', 'sampling', 'roots']) {
    if (isRecord(round.capabilities[key])) offered[key] = round.capabilities[key]
  }
  return offered
}

/**
 * Reads one resource: through `requestWithRounds` when its questions go up the line (a 2026-07-28
 * server and a caller to ask), else with the SDK's own read.
 *
 * @example
 * const read = await readResourceOn({ client, uri: 'test://a', timeoutMs: 30_000, round })
 */
export async function readResourceOn(options: {
  client: Client
  uri: string
  timeoutMs: number
  round: ToolInputRound | undefined
}): Promise<ReadResourceResult> {
  const { client, uri, timeoutMs, round } = options
  if (round === undefined || client.getProtocolEra() !== 'modern') {
    return client.readResource({ uri }, { timeout: timeoutMs })
  }
  const params = { uri }
  return (await requestWithRounds({
    client,
    method: 'resources/read',
    params,
    round,
    timeoutMs,
  })) as ReadResourceResult
}

/**
 * Renders one prompt: through `requestWithRounds` when its questions go up the line, else with the
 * SDK's own `getPrompt`.
 *
 * @example
 * const prompt = await getPromptOn({ client, name: 'greet', args: {}, timeoutMs: 30_000, round })
 */
export async function getPromptOn(options: {
  client: Client
  name: string
  args: Record<string, string>
  timeoutMs: number
  round: ToolInputRound | undefined
}): Promise<GetPromptResult> {
  const { client, name, args, timeoutMs, round } = options
  if (round === undefined || client.getProtocolEra() !== 'modern') {
    return client.getPrompt({ name, arguments: args }, { timeout: timeoutMs })
  }
  const params = { name, arguments: args }
  return (await requestWithRounds({
    client,
    method: 'prompts/get',
    params,
    round,
    timeoutMs,
  })) as GetPromptResult
}
