// Scale figures for toolnexus alone: a 1,000-tool toolkit converted to every format, and many stdio MCP
// servers connecting (in parallel, against each alone one after another). Run in its own process.

import { performance } from 'node:perf_hooks'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { createToolkit, defineTool, type Tool, type Toolkit } from 'toolnexus'
import { median } from '../harness/stats.js'
import { syntheticToolDefinitions } from './synthetic-tools.js'

export interface ScaleConfig {
  quick: boolean
  mcpServer: { command: string; args: string[] }
}

export interface ConversionFigures {
  toolCount: number
  defineMs: number
  createToolkitMs: number
  /** Per format: the first call, then the median of warm calls. */
  formats: Array<{ format: string; firstMs: number; warmMs: number; bytes: number }>
}

export interface McpConnectFigures {
  label: string
  servers: number
  startupDelayMs: number
  /** Each server alone, one after another. */
  aloneMs: number[]
  /** All of them in one toolkit: the median of the rounds. */
  togetherMs: number
  /** The same servers through the MCP SDK's own `Client`s with `Promise.all`: what the machine allows. */
  rawSdkMs: number
  /**
   * The same, each server given the host's whole environment, as the toolkit gives it (the SDK's default
   * passes six variables): the like-for-like figure.
   */
  rawSdkHostEnvMs: number
  /** Median of the per-round ratios toolkit ÷ SDK, default environment and host environment. */
  toolkitToSdk: number
  toolkitToSdkHostEnv: number
  rounds: number
}

export interface ScaleReport {
  conversion: ConversionFigures
  mcp: McpConnectFigures[]
  /** A single server connected alone, median of several. */
  singleServerMs: number
}

async function time<T>(work: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const start = performance.now()
  const value = await work()
  return { value, ms: performance.now() - start }
}

function makeTools(count: number): Tool[] {
  return syntheticToolDefinitions(count).map((definition) => defineTool(definition))
}

async function conversion(config: ScaleConfig): Promise<ConversionFigures> {
  const toolCount = 1000
  const iterations = config.quick ? 5 : 25
  const defined = await time(() => makeTools(toolCount))
  const created = await time(() => createToolkit({ tools: defined.value }))
  const toolkit = created.value
  const converters: Array<[string, () => unknown]> = [
    ['toOpenAI', () => toolkit.toOpenAI()],
    ['toAnthropic', () => toolkit.toAnthropic()],
    ['toGemini', () => toolkit.toGemini()],
    ['toGemini (parametersJsonSchema)', () => toolkit.toGemini({ parametersJsonSchema: true })],
    ['toAISDK', () => toolkit.toAISDK()],
  ]
  const formats: ConversionFigures['formats'] = []
  for (const [format, convert] of converters) {
    const first = await time(convert)
    const warm: number[] = []
    for (let index = 0; index < iterations; index++) warm.push((await time(convert)).ms)
    const output = first.value
    const count = Array.isArray(output)
      ? format.startsWith('toGemini')
        ? (output[0] as { functionDeclarations: unknown[] }).functionDeclarations.length
        : output.length
      : Object.keys(output as object).length
    if (count !== toolCount) throw new Error(`${format} returned ${count} tools, expected ${toolCount}`)
    // toAISDK holds functions and schema objects; its size is not a wire size.
    const bytes = format === 'toAISDK' ? 0 : JSON.stringify(output).length
    formats.push({ format, firstMs: first.ms, warmMs: median(warm), bytes })
  }
  await toolkit.close()
  return { toolCount, defineMs: defined.ms, createToolkitMs: created.ms, formats }
}

function serverArgs(config: ScaleConfig, name: string, startupDelayMs: number): string[] {
  return [...config.mcpServer.args, '--name', name, '--startup-delay-ms', String(startupDelayMs)]
}

async function connectToolkit(config: ScaleConfig, names: string[], startupDelayMs: number): Promise<number> {
  const mcpServers = Object.fromEntries(
    names.map((name) => [
      name,
      { command: config.mcpServer.command, args: serverArgs(config, name, startupDelayMs) },
    ]),
  )
  const { value: toolkit, ms } = await time(() => createToolkit({ mcpConfig: { mcpServers } }))
  checkConnected(toolkit, names)
  await toolkit.close()
  return ms
}

function checkConnected(toolkit: Toolkit, names: string[]): void {
  const status = toolkit.mcpStatus()
  const failed = names.filter((name) => status[name] !== 'connected')
  if (failed.length > 0)
    throw new Error(`MCP servers not connected: ${failed.join(', ')} (${JSON.stringify(status)})`)
  if (toolkit.tools().length !== names.length * 2) {
    throw new Error(`expected ${names.length * 2} MCP tools, got ${toolkit.tools().length}`)
  }
}

async function connectScenario(
  config: ScaleConfig,
  label: string,
  servers: number,
  startupDelayMs: number,
): Promise<McpConnectFigures> {
  const names = Array.from({ length: servers }, (_, index) => `server_${index + 1}`)
  const aloneMs: number[] = []
  for (const name of names) aloneMs.push(await connectToolkit(config, [name], startupDelayMs))
  // The three take turns, the order rotating each round, so each sees the machine as the others do.
  const contenders = [
    () => connectToolkit(config, names, startupDelayMs),
    () => rawSdkParallel(config, names, startupDelayMs, false),
    () => rawSdkParallel(config, names, startupDelayMs, true),
  ]
  const times: number[][] = contenders.map(() => [])
  const rounds = config.quick ? 1 : 5
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < contenders.length; step++) {
      const index = (round + step) % contenders.length
      times[index]?.push(await (contenders[index] as () => Promise<number>)())
    }
  }
  const [toolkit = [], sdk = [], sdkHostEnv = []] = times
  const ratios = (other: number[]) => median(toolkit.map((ms, round) => ms / (other[round] as number)))
  return {
    label,
    servers,
    startupDelayMs,
    aloneMs,
    togetherMs: median(toolkit),
    rawSdkMs: median(sdk),
    rawSdkHostEnvMs: median(sdkHostEnv),
    toolkitToSdk: ratios(sdk),
    toolkitToSdkHostEnv: ratios(sdkHostEnv),
    rounds,
  }
}

const hostEnvironment = Object.fromEntries(
  Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
)

async function rawSdkParallel(
  config: ScaleConfig,
  names: string[],
  startupDelayMs: number,
  hostEnv: boolean,
): Promise<number> {
  const { value: clients, ms } = await time(() =>
    Promise.all(
      names.map(async (name) => {
        const client = new Client({ name: 'bench-raw', version: '1.0.0' })
        await client.connect(
          new StdioClientTransport({
            command: config.mcpServer.command,
            args: serverArgs(config, name, startupDelayMs),
            ...(hostEnv && { env: hostEnvironment }),
          }),
        )
        await client.listTools()
        return client
      }),
    ),
  )
  await Promise.all(clients.map((client) => client.close()))
  return ms
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as ScaleConfig
  const conversionFigures = await conversion(config)
  // Warm the lazy MCP chunk and the SDK once, so the first measured connect is not paying for module loading.
  await connectToolkit(config, ['warm_up'], 0)
  const single: number[] = []
  for (let index = 0; index < (config.quick ? 3 : 7); index++)
    single.push(await connectToolkit(config, ['single'], 0))
  const mcp = [
    await connectScenario(config, '10 stdio servers', 10, 0),
    await connectScenario(config, '10 stdio servers, 300 ms startup each', 10, 300),
    await connectScenario(config, '20 stdio servers', 20, 0),
  ]
  const report: ScaleReport = {
    conversion: conversionFigures,
    mcp,
    singleServerMs: median(single),
  }
  process.send?.({ type: 'scale', report })
  process.disconnect()
}

main().catch((error: unknown) => {
  process.send?.({
    type: 'error',
    phase: 'scale',
    message: error instanceof Error ? (error.stack ?? error.message) : String(error),
  })
  process.disconnect()
})
