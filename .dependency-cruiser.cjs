// The import structure of src/ (`npm run check:imports`): no cycle between files or between folders,
// type-only imports included, and every import points down the layers that docs/architecture.md draws.
// A folder may import its own layer and the layers below it, never a layer above.

/** The layers, lowest first; each entry is a folder of src/ or a file at its root. */
const layers = [
  { name: 'base', members: ['shared', 'errors.ts', 'version.ts'] },
  { name: 'tool', members: ['tool'] },
  { name: 'tool-sources', members: ['adapters', 'toolkit', 'mcp', 'skills', 'http', 'search', 'doctor'] },
  { name: 'contracts', members: ['contracts'] },
  { name: 'loop', members: ['loop', 'approvals', 'conversation', 'stores', 'durable', 'telemetry', 'ui'] },
  { name: 'transports', members: ['ai-sdk', 'genai'] },
  {
    name: 'entries',
    members: [
      'client',
      'provider-form',
      'next',
      'mcp-server',
      'cli',
      'dbos',
      'redis',
      'postgres',
      'index.ts',
    ],
  },
]

const escapeDots = (text) => text.replace(/[.]/g, '\\.')
const pathOf = (member) => (member.endsWith('.ts') ? `^src/${escapeDots(member)}$` : `^src/${member}/`)
const known = layers.flatMap((layer) => layer.members)

const upwardRules = layers.slice(0, -1).map((layer, index) => ({
  name: `no-import-up-from-${layer.name}`,
  comment: `${layer.name} (${layer.members.join(', ')}) imports only its own layer and those below it.`,
  severity: 'error',
  from: { path: layer.members.map(pathOf) },
  to: { path: layers.slice(index + 1).flatMap((above) => above.members.map(pathOf)) },
}))

// The entries sit side by side: each is its own way in, and what two of them share lives below them.
// src/index.ts, the root entry, re-exports some of them (createClient) and is not followed.
const entries = layers.at(-1).members.filter((entry) => entry !== 'index.ts')
const siblingRules = entries.map((entry) => ({
  name: `no-import-between-entries-${entry.replace('.ts', '')}`,
  comment: `${entry} is an entry: it imports no other entry; what entries share lives in a lower layer.`,
  severity: 'error',
  from: { path: pathOf(entry) },
  to: { path: entries.filter((other) => other !== entry).map(pathOf) },
}))

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-file-cycle',
      comment: 'No import cycle between files, type-only imports included.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      comment:
        'No import cycle between folders of src/, type-only imports included. src/index.ts is the root ' +
        'entry, imported by nothing, and is not followed (it re-exports every folder).',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...upwardRules,
    ...siblingRules,
    {
      name: 'no-unplaced-folder',
      comment: `Every folder of src/ has a layer (${known.join(', ')}); add a new one to .dependency-cruiser.cjs.`,
      severity: 'error',
      from: { path: '^src/', pathNot: known.map(pathOf) },
      to: {},
    },
    {
      name: 'no-import-of-the-root-entry',
      comment: 'Nothing inside src/ imports src/index.ts: it is the entry, not a module to share.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/index\\.ts$' },
      to: { path: '^src/index\\.ts$' },
    },
    {
      name: 'no-import-of-tests-or-bench',
      comment: 'The package does not import the suite, the benchmarks or the examples.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench|examples)/' },
    },
  ],
  options: {
    // Type-only imports count: a cycle of types is a cycle a reader follows too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: ['node_modules', '^src/index\\.ts$'] },
    exclude: { path: ['node_modules', '\\.test\\.ts$'] },
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
}
