// `toolnexus search "<query>"` as a user runs it: the built CLI, in a child process, over HTTP tool specs.
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDist, removeDist } from '../support/build-dist.js'

let dist = ''
let scratch = ''
let specs = ''

const endpoint = (name: string, description: string) => ({
  name,
  description,
  method: 'GET',
  url: `http://127.0.0.1:9/${name}`,
})

beforeAll(async () => {
  dist = await buildDist()
  scratch = await mkdtemp(join(tmpdir(), 'toolnexus-cli-search-'))
  specs = join(scratch, 'http.json')
  await writeFile(
    specs,
    JSON.stringify([
      endpoint('get_weather', 'Current weather and the forecast for a city.'),
      endpoint('send_email', 'Sends an email message to a recipient.'),
      endpoint('convert_currency', 'Converts an amount between currencies at the latest exchange rate.'),
    ]),
  )
}, 240_000)

afterAll(async () => {
  if (dist !== '') await removeDist(dist)
  await rm(scratch, { recursive: true, force: true })
})

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(dist, 'cli.js'), ...args],
      { timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1
        resolve({ code, stdout, stderr })
      },
    )
  })
}

describe('toolnexus search', () => {
  it('prints the best matches, best first, as a table', async () => {
    const { code, stdout } = await run(['search', 'will it rain in Pune tomorrow? weather', '--http', specs])
    expect(code).toBe(0)
    const lines = stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^tool +score +description$/)
    expect(lines[1]).toMatch(/^-+ +-+ +-+$/)
    expect(lines[2]).toMatch(/^get_weather +\d+\.\d\d +Current weather and the forecast for a city\.$/)
  })

  it('--json --limit 1 prints the matches as JSON', async () => {
    const { code, stdout } = await run(['search', 'email my boss', '--http', specs, '--json', '--limit', '1'])
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toStrictEqual([
      {
        name: 'send_email',
        description: 'Sends an email message to a recipient.',
        score: expect.any(Number),
      },
    ])
  })

  it.each([[[]], [['weather', '--limit', '0']]])('search %j exits 2 with the usage', async (args) => {
    const { code, stderr } = await run(['search', ...args, '--http', specs])
    expect(code).toBe(2)
    expect(stderr).toContain('toolnexus search')
  })
})
