// A 2025-era server asks its client mid-call (elicitation/create, sampling/createMessage, roots/list) on
// the session, not in its answer. When the request it belongs to is served on to a caller up the line (a
// gateway), the question goes to that caller through the request's round, and the answer comes back to
// the server as the reply. A question is put to a caller only when it can belong to no other request:
// exactly one request is in flight on the connection, and it is served with a round that can hold.

import { isRecord } from '../shared/is-record.js'
import type { ToolInputRound } from '../tool/types.js'

// Each kind of server request, and the client capability the caller must have declared to answer it.
const CAPABILITY_OF: Record<string, string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
}

/**
 * The requests in flight on one connection, each with the round of the caller it is served to (none for
 * the host's own), so that a server's question mid-call finds the caller it belongs to.
 *
 * @example
 * const inFlight = new InFlight()
 * await inFlight.run(context.inputRound, () => client.callTool(params))
 */
export class InFlight {
  readonly #rounds = new Map<symbol, ToolInputRound | undefined>()

  /** Runs `work` counted in flight with `round`. */
  async run<Value>(round: ToolInputRound | undefined, work: () => Promise<Value>): Promise<Value> {
    const id = Symbol('request')
    this.#rounds.set(id, round)
    try {
      return await work()
    } finally {
      this.#rounds.delete(id)
    }
  }

  /** The round of the one request in flight, when exactly one is and its round can hold a call. */
  sole(): ToolInputRound | undefined {
    if (this.#rounds.size !== 1) return undefined
    const [round] = this.#rounds.values()
    return round?.hold === undefined ? undefined : round
  }
}

let asked = 0

/**
 * Puts a 2025-era server's own request to the caller up the line, through the round of the one request
 * in flight: the answer, or `undefined` when no caller can take it (no such request, or a caller that did
 * not declare the capability, or a URL elicitation for a caller without URL mode), for the host to answer.
 *
 * @example
 * const answer = forwardMidCall(inFlight, 'elicitation/create', request.params) ?? host(request)
 */
export function forwardMidCall(
  inFlight: InFlight,
  method: string,
  params: Record<string, unknown> | undefined,
): Promise<unknown> | undefined {
  const round = inFlight.sole()
  const hold = round?.hold
  const needed = CAPABILITY_OF[method]
  if (round === undefined || hold === undefined || needed === undefined) return undefined
  const declared = round.capabilities[needed]
  if (!isRecord(declared)) return undefined
  if (method === 'elicitation/create' && params?.mode === 'url' && !isRecord(declared.url)) return undefined
  asked++
  const key = `${needed}_${asked}`
  // The SDK's own keys of a request (`_meta`, its task) are not the caller's business.
  const { _meta: _, ...rest } = params ?? {}
  return hold({ [key]: { method, params: rest } }).then((answers) => answers[key])
}
