// The two ways a JWT is the grant for an MCP server's access token (an RFC 7523 JWT bearer grant):
// - workload identity: the JWT the platform issued the workload, read from its file or the entry;
// - enterprise-managed authorization ("cross-app access"): the signed-in user's ID token, from the host,
//   exchanged at the enterprise identity provider for a grant naming this MCP server (an ID-JAG, by
//   RFC 8693 token exchange). The MCP SDK makes the requests; this decides what is asked.
// Every token is handed to `onSecret` before a request carries it, so it is masked wherever text is written.
import { readFile } from 'node:fs/promises'
import { discoverAndRequestJwtAuthGrant, requestJwtAuthorizationGrant } from '@modelcontextprotocol/client'
import { describeError } from './describe-mcp-failure.js'
import type { OAuthPlan } from './mcp-server-plan.js'
import type { OAuthOptions } from './oauth-options.js'

/** The grant type of the token request that redeems a JWT. */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer'

/** The most a workload token file may hold: a JWT is a few KB; anything larger is not one. */
const MAX_ASSERTION_BYTES = 64 * 1024

/**
 * The token request of a `jwt_bearer` entry: the workload's JWT, read again from `assertionFile` for
 * each request (the platform rotates it) or taken from `assertion`. Throws naming the file when it
 * cannot be read, is empty or is too large to be a JWT, never showing what it holds.
 *
 * @example
 * const params = await workloadTokenRequest({ server: 'ci-tools', plan, onSecret })
 */
export async function workloadTokenRequest(input: {
  server: string
  plan: OAuthPlan
  scope?: string
  onSecret: (secret: string) => void
}): Promise<URLSearchParams> {
  const { server, plan } = input
  const assertion =
    plan.assertionFile === undefined ? plan.assertion : await readAssertion(server, plan.assertionFile)
  if (assertion === undefined || assertion === '') {
    throw new Error(`MCP server "${server}": "auth.assertion" is empty`)
  }
  input.onSecret(assertion)
  return bearerRequest(assertion, input.scope)
}

async function readAssertion(server: string, file: string): Promise<string> {
  let bytes: Buffer
  try {
    bytes = await readFile(file)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable'
    throw new Error(`MCP server "${server}": the workload token file ${file} cannot be read (${code})`)
  }
  const text = bytes.length > MAX_ASSERTION_BYTES ? undefined : bytes.toString('utf8').trim()
  if (text === undefined || text === '') {
    const why = text === undefined ? `over ${MAX_ASSERTION_BYTES} bytes` : 'empty'
    throw new Error(`MCP server "${server}": the workload token file ${file} holds no JWT (${why})`)
  }
  return text
}

function bearerRequest(assertion: string, scope: string | undefined): URLSearchParams {
  const params = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion })
  if (scope !== undefined) params.set('scope', scope)
  return params
}

/**
 * The token request of a `cross_app_access` entry: asks the host for the user's ID token, exchanges it
 * at the entry's identity provider for a grant to `resource` at `authorizationServer`, and returns the
 * JWT bearer request that redeems it. The ID token and the grant are handed to `onSecret` before any
 * request carries them. Throws when the host has no `oauth.idToken`, naming it.
 *
 * @example
 * const params = await crossAppTokenRequest({ server: 'crm', plan, host, authorizationServer, resource, onSecret })
 */
export async function crossAppTokenRequest(input: {
  server: string
  plan: OAuthPlan
  host: OAuthOptions
  /** The MCP server's authorization server (its issuer): the grant's audience. */
  authorizationServer?: string
  /** The MCP server's resource identifier, from its protected resource metadata. */
  resource?: string
  scope?: string
  onSecret: (secret: string) => void
}): Promise<URLSearchParams> {
  const { server, plan, host, authorizationServer, resource, onSecret } = input
  const idp = plan.idp
  if (idp === undefined) throw new Error(`MCP server "${server}": "auth.idp" is missing`)
  if (host.idToken === undefined) {
    throw new Error(
      `MCP server "${server}" uses enterprise-managed authorization ("grant": "cross_app_access"), and ` +
        "the toolkit has no oauth.idToken to give the signed-in user's ID token from " +
        idp.issuer,
    )
  }
  if (authorizationServer === undefined || resource === undefined) {
    throw new Error(
      `MCP server "${server}" publishes no protected resource metadata naming its authorization server ` +
        'and resource, which enterprise-managed authorization needs',
    )
  }
  const idToken = await host.idToken({ server, issuer: idp.issuer })
  if (typeof idToken !== 'string' || idToken === '') {
    throw new Error(`MCP server "${server}": oauth.idToken gave no ID token (a non-empty string)`)
  }
  onSecret(idToken)
  const exchange = {
    audience: authorizationServer,
    resource,
    idToken,
    clientId: idp.clientId,
    ...(idp.clientSecret !== undefined && { clientSecret: idp.clientSecret }),
    ...(input.scope !== undefined && { scope: input.scope }),
  }
  let jwtAuthGrant: string
  try {
    ;({ jwtAuthGrant } =
      idp.tokenEndpoint === undefined
        ? await discoverAndRequestJwtAuthGrant({ ...exchange, idpUrl: idp.issuer })
        : await requestJwtAuthorizationGrant({ ...exchange, tokenEndpoint: idp.tokenEndpoint }))
  } catch (error) {
    throw new Error(
      `MCP server "${server}": the identity provider ${idp.issuer} gave no grant for it: ${firstLine(describeError(error))}`,
      { cause: error },
    )
  }
  onSecret(jwtAuthGrant)
  return bearerRequest(jwtAuthGrant, input.scope)
}

/** A failure's first line, cut to a length a status line can show (a metadata check lists every issue). */
function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? ''
  return line.length > 300 ? `${line.slice(0, 300)}…` : line
}
