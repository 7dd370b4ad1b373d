import type { ScriptedServer } from '../support/scripted-server.js'

/** The body of the endpoint's `index`-th request (the test fails plainly when there is none). */
export function bodyOf<Body>(server: ScriptedServer, index: number): Body {
  const request = server.requests[index]
  if (request === undefined) throw new Error(`the endpoint got no request #${index}`)
  return request.body as Body
}
