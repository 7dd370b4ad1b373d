/**
 * The version of this package, as `package.json` says (a test keeps the two equal). MCP servers see it
 * in the client info toolnexus sends at initialize.
 *
 * @example
 * console.log(`toolnexus ${VERSION}`)
 */
export const VERSION = '0.1.0'
