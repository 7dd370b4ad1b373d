import type { NextConfig } from 'next'

const nextConfig: NextConfig = {
  // This app is its own project (toolnexus is installed as a packed copy); don't climb to the repo root.
  turbopack: { root: process.cwd() },
  // The MCP SDK spawns stdio servers; load it from node_modules on the Node runtime instead of bundling it.
  // node-redis (the store mode's Redis client) likewise, loaded only when REDIS_URL is set.
  serverExternalPackages: ['@modelcontextprotocol/sdk', 'redis'],
}

export default nextConfig
