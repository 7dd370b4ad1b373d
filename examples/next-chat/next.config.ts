import type { NextConfig } from 'next'

const nextConfig: NextConfig = {
  // This app is its own project (toolnexus is installed as a packed copy); don't climb to the repo root.
  turbopack: { root: process.cwd() },
  // The MCP SDK spawns stdio servers; load it from node_modules on the Node runtime instead of bundling it.
  serverExternalPackages: ['@modelcontextprotocol/sdk'],
}

export default nextConfig
