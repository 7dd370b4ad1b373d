import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    next: 'src/next/index.ts',
    redis: 'src/redis/index.ts',
    postgres: 'src/postgres/index.ts',
    'mcp-server': 'src/mcp-server/index.ts',
    dbos: 'src/dbos/index.ts',
    // The `toolnexus` command (package.json `bin`); tsup keeps its shebang.
    cli: 'src/cli/main.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  splitting: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  treeshake: true,
})
