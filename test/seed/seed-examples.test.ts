import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { main as oneTool } from '../../examples/gemini/01-one-tool.js'
import { main as generateContentBody } from '../../examples/gemini/02-generate-content-body.js'
import { main as functionCallRoundTrip } from '../../examples/gemini/03-function-call-round-trip.js'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../../', import.meta.url))

const examples = [
  { file: 'examples/gemini/01-one-tool.ts', main: oneTool, line: 'ok: get_weather' },
  {
    file: 'examples/gemini/02-generate-content-body.ts',
    main: generateContentBody,
    line: 'ok: ["search","ping"]',
  },
  {
    file: 'examples/gemini/03-function-call-round-trip.ts',
    main: functionCallRoundTrip,
    line: 'ok: get_weather -> sunny in Chennai',
  },
]

describe('the seed examples of ToGemini, in TypeScript', () => {
  it.each(examples)('$file holds', async ({ main, line }) => {
    await expect(main()).resolves.toBe(line)
  })

  it.each(examples)(
    '$file runs on its own with tsx, prints its ok line and exits 0',
    async ({ file, line }) => {
      const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', file], {
        cwd: root,
        timeout: 30_000,
      })
      expect(stdout).toBe(`${line}\n`)
      expect(stderr).toBe('')
    },
  )
})
