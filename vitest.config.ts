import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/e2e/**', 'examples/**'],
    // Fails the run when a process the suite started is still running at its end.
    globalSetup: ['test/support/leftover-processes.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test time is spent waiting on real processes (MCP servers, Redis, Postgres, child Node
    // processes) and loopback sockets, not on the CPU: three files at once keep two cores busy, where
    // the default (one fewer worker than cores) runs one file at a time on a 2-core machine.
    maxWorkers: 3,
    // A worker keeps its module cache from one file to the next: importing `ai`, the providers and the
    // MCP SDK afresh for every file was a third of the run. Each file restores what it changes (env
    // variables, timers, OpenTelemetry globals) in its own hooks.
    isolate: false,
  },
})
