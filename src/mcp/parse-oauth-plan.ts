// An `mcp.json` entry's `auth`, read and checked: the grant, the client, and what proves it. Every
// secret it holds (`clientSecret`, `privateKey`, `assertion`, `idp.clientSecret`) is reported, even when written
// literally, so it is masked wherever the connection writes text.
import { resolve } from 'node:path'
import { isRecord } from '../shared/is-record.js'
import { secretPartsOf } from '../shared/scrub-secrets.js'
import { readSigningKey } from './client-credentials-jwt.js'
import type { McpAuthConfig } from './mcp-config.js'
import type { OAuthPlan } from './mcp-server-plan.js'
import {
  describeValue,
  type EntryContext,
  EntryProblem,
  expandEntryValue,
  optionalString,
} from './read-entry-value.js'

const GRANTS: ReadonlyArray<NonNullable<McpAuthConfig['grant']>> = [
  'authorization_code',
  'client_credentials',
  'cross_app_access',
  'jwt_bearer',
]

/** What each grant proves the client with, said when the entry gives something else. */
const GRANT_NEEDS: Record<NonNullable<McpAuthConfig['grant']>, string> = {
  authorization_code: '',
  client_credentials:
    '"auth" with "grant": "client_credentials" needs "clientId" and "clientSecret", or "clientId" and ' +
    '"privateKey" (a signed JWT assertion), not both',
  cross_app_access:
    '"auth" with "grant": "cross_app_access" needs "clientId" and "clientSecret" (the client registered ' +
    'with the MCP server\'s authorization server) and "idp": { "issuer", "clientId" } (the enterprise ' +
    "identity provider that exchanges the user's ID token)",
  jwt_bearer:
    '"auth" with "grant": "jwt_bearer" needs "clientId" and one of "assertionFile" (where the platform keeps ' +
    'the workload\'s JWT) or "assertion" (the JWT, usually "${VAR}")',
}

/**
 * The entry's `auth` as a plan, or `undefined` when it has none. Throws an `EntryProblem` naming the
 * field to change.
 *
 * @example
 * const auth = oauthPlanOf(entry, context, secrets)
 */
export function oauthPlanOf(
  entry: Record<string, unknown>,
  context: EntryContext,
  secrets: string[],
): OAuthPlan | undefined {
  const raw = entry.auth
  if (raw === undefined) return undefined
  if (!isRecord(raw)) throw new EntryProblem(`"auth" must be an object; got ${describeValue(raw)}`)
  const field = (key: string): string | undefined => {
    const value = optionalString(raw, key)
    return value === undefined ? undefined : expandEntryValue(value, `auth.${key}`, context, secrets)
  }
  const grant = (optionalString(raw, 'grant') ?? 'authorization_code') as OAuthPlan['grant']
  if (!GRANTS.includes(grant)) {
    throw new EntryProblem(
      `"auth.grant" must be ${GRANTS.map((each) => `"${each}"`).join(', ')}; got ${describeValue(grant)}`,
    )
  }
  const plan: OAuthPlan = { grant }
  const keys = [
    'clientId',
    'clientSecret',
    'scope',
    'redirectUrl',
    'clientMetadataUrl',
    'clientName',
  ] as const
  for (const key of keys) {
    const value = field(key)
    if (value !== undefined) plan[key] = value
  }
  if (plan.clientSecret !== undefined) secrets.push(...secretPartsOf(plan.clientSecret))
  const key = signingKeyOf(raw, field, secrets)
  if (key !== undefined) plan.signingKey = key
  const idp = idpOf(raw, context, secrets)
  if (idp !== undefined) plan.idp = idp
  const assertion = field('assertion')
  const assertionFile = field('assertionFile')
  if (assertion !== undefined) {
    plan.assertion = assertion
    secrets.push(...secretPartsOf(assertion))
  }
  if (assertionFile !== undefined) plan.assertionFile = resolve(context.baseDir, assertionFile)
  if (grant === 'jwt_bearer') {
    if (plan.clientId === undefined || (assertion === undefined) === (assertionFile === undefined)) {
      throw new EntryProblem(GRANT_NEEDS[grant])
    }
  } else if (assertion !== undefined || assertionFile !== undefined) {
    throw new EntryProblem('"auth.assertion" and "auth.assertionFile" are the grant of "grant": "jwt_bearer"')
  }
  if (grant === 'client_credentials') {
    const proofs = Number(plan.clientSecret !== undefined) + Number(key !== undefined)
    if (plan.clientId === undefined || proofs !== 1) throw new EntryProblem(GRANT_NEEDS[grant])
  } else if (key !== undefined) {
    throw new EntryProblem(
      '"auth.privateKey" signs client credentials: it needs "grant": "client_credentials"',
    )
  }
  if (grant === 'cross_app_access') {
    if (plan.clientId === undefined || plan.clientSecret === undefined || idp === undefined) {
      throw new EntryProblem(GRANT_NEEDS[grant])
    }
  } else if (idp !== undefined) {
    throw new EntryProblem('"auth.idp" names the identity provider of "grant": "cross_app_access"')
  }
  return plan
}

/** The entry's `auth.idp`: the enterprise identity provider that turns an ID token into a grant. */
function idpOf(raw: Record<string, unknown>, context: EntryContext, secrets: string[]): OAuthPlan['idp'] {
  const written = raw.idp
  if (written === undefined) return undefined
  if (!isRecord(written))
    throw new EntryProblem(`"auth.idp" must be an object; got ${describeValue(written)}`)
  const field = (key: string): string | undefined => {
    const value = optionalString(written, key)
    return value === undefined ? undefined : expandEntryValue(value, `auth.idp.${key}`, context, secrets)
  }
  const issuer = field('issuer')
  const clientId = field('clientId')
  if (issuer === undefined || clientId === undefined) {
    throw new EntryProblem('"auth.idp" needs "issuer" (the identity provider\'s URL) and "clientId"')
  }
  const tokenEndpoint = field('tokenEndpoint')
  for (const [key, value] of [
    ['issuer', issuer],
    ['tokenEndpoint', tokenEndpoint],
  ] as const) {
    if (value !== undefined && !URL.canParse(value)) {
      throw new EntryProblem(`"auth.idp.${key}" must be a URL; got ${describeValue(value)}`)
    }
  }
  const idp: NonNullable<OAuthPlan['idp']> = { issuer, clientId }
  if (tokenEndpoint !== undefined) idp.tokenEndpoint = tokenEndpoint
  const clientSecret = field('clientSecret')
  if (clientSecret !== undefined) {
    idp.clientSecret = clientSecret
    secrets.push(...secretPartsOf(clientSecret))
  }
  return idp
}

/** The entry's `auth.privateKey` (PEM or JWK text, or a JWK object) with `auth.algorithm`, read and checked. */
function signingKeyOf(
  raw: Record<string, unknown>,
  field: (key: string) => string | undefined,
  secrets: string[],
): OAuthPlan['signingKey'] {
  const algorithm = field('algorithm')
  const written = raw.privateKey
  if (written === undefined) {
    if (algorithm !== undefined)
      throw new EntryProblem(
        '"auth.algorithm" is the signing algorithm of "auth.privateKey", which is missing',
      )
    return undefined
  }
  const key = isRecord(written) ? written : field('privateKey')
  if (key === undefined || key === '') {
    throw new EntryProblem('"auth.privateKey" must be a PEM or JWK text (usually "${VAR}") or a JWK object')
  }
  try {
    return readSigningKey(key, algorithm, secrets)
  } catch (error) {
    throw new EntryProblem((error as Error).message)
  }
}
