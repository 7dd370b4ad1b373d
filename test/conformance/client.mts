// The client the official MCP conformance suite drives: `<command> <server-url>`, with the scenario in
// MCP_CONFORMANCE_SCENARIO and its data (client credentials, a signing key, an ID token, a workload JWT) in MCP_CONFORMANCE_CONTEXT. Everything it
// does goes through a toolkit: connect, list, call each tool, answer elicitation, authorize with OAuth.
import type { McpAuthConfig } from '../../src/index.js'
import { createToolkit } from '../../src/index.js'

const serverUrl = process.argv[2]
if (serverUrl === undefined) throw new Error('usage: client.mts <server-url>')
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? ''
/** The scenario's data: strings (credentials, a key), and the tool calls some scenarios ask for. */
type Context = Record<string, string | undefined> & {
  toolCalls?: Array<{ name: string; arguments?: Record<string, unknown> }>
}
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Context
const REDIRECT_URL = 'http://localhost:3000/callback'

function authOf(): McpAuthConfig | undefined {
  if (!scenario.startsWith('auth/')) return undefined
  const { client_id: clientId, client_secret: clientSecret } = context
  const { private_key_pem: privateKey, signing_algorithm: algorithm } = context
  const { idp_issuer: idpIssuer, idp_client_id: idpClientId, idp_token_endpoint: tokenEndpoint } = context
  if (context.valid_jwt !== undefined && clientId !== undefined) {
    return { grant: 'jwt_bearer', clientId, assertion: context.valid_jwt }
  }
  if (idpIssuer !== undefined && idpClientId !== undefined && clientId !== undefined) {
    return {
      grant: 'cross_app_access',
      clientId,
      ...(clientSecret !== undefined && { clientSecret }),
      idp: {
        issuer: idpIssuer,
        clientId: idpClientId,
        ...(tokenEndpoint !== undefined && { tokenEndpoint }),
      },
    }
  }
  if (scenario.startsWith('auth/client-credentials') && clientId !== undefined && privateKey !== undefined) {
    return {
      grant: 'client_credentials',
      clientId,
      privateKey,
      ...(algorithm !== undefined && { algorithm }),
    }
  }
  if (
    scenario.startsWith('auth/client-credentials') &&
    clientId !== undefined &&
    clientSecret !== undefined
  ) {
    return { grant: 'client_credentials', clientId, clientSecret }
  }
  if (clientId !== undefined) {
    return { clientId, redirectUrl: REDIRECT_URL, ...(clientSecret !== undefined && { clientSecret }) }
  }
  // Used as the client id only where the authorization server says it supports metadata documents.
  return {
    redirectUrl: REDIRECT_URL,
    clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
  }
}

const warnings: string[] = []
const auth = authOf()
const toolkit = await createToolkit({
  logger: { warn: (message) => warnings.push(message) },
  mcpConfig: { mcpServers: { server: { url: serverUrl, timeout: 20_000, ...(auth && { auth }) } } },
  // The test authorization servers approve at once: the code is in the redirect's Location.
  oauth: {
    redirectUrl: REDIRECT_URL,
    // The whole redirect goes back: the toolkit checks its state and iss before redeeming the code.
    onAuthorization: async ({ url }) => {
      const response = await fetch(url, { redirect: 'manual' })
      const location = response.headers.get('location')
      if (location === null) throw new Error(`no authorization redirect (HTTP ${response.status})`)
      return { callbackUrl: new URL(location, url) }
    },
    // Enterprise-managed authorization: the user's ID token, as the scenario's identity provider issued it.
    idToken: () => context.idp_id_token ?? '',
  },
  // Accept with nothing filled in: every field takes the default the server gave.
  onElicitation: () => ({ action: 'accept', content: {} }),
})

let failed = toolkit.mcpStatus().server !== 'connected'
// The calls the scenario names (its tools under the toolkit's names), else each tool with sample arguments.
// A server with a schema echo tool asks for the other tool's input schema as the toolkit holds it (to see
// which keywords were kept), and only that call.
const echo = toolkit.tools().find((tool) => tool.name === 'server_json_schema_echo')
const echoed = toolkit.tools().find((tool) => tool !== echo)?.inputSchema
const calls =
  context.toolCalls?.map((call) => ({ name: `server_${call.name}`, args: call.arguments ?? {} })) ??
  (echo !== undefined
    ? [{ name: echo.name, args: { schema: echoed } }]
    : toolkit.tools().map((tool) => ({ name: tool.name, args: sampleArgs(tool.inputSchema) })))
for (const { name, args } of calls) {
  const result = await toolkit.execute(name, args)
  if (result.isError) {
    failed = true
    console.error(`${name}: ${result.output}`)
  }
}
for (const warning of warnings) console.error(warning)
await toolkit.close()
process.exit(failed ? 1 : 0)

/** Arguments that fit a simple schema: every required property with a value of its type. */
function sampleArgs(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string }>
  const required = (schema.required ?? []) as string[]
  const sample: Record<string, unknown> = {}
  for (const name of required) {
    const type = properties[name]?.type
    sample[name] =
      type === 'number' || type === 'integer'
        ? 1
        : type === 'boolean'
          ? true
          : type === 'object'
            ? {}
            : type === 'array'
              ? []
              : 'x'
  }
  return sample
}
