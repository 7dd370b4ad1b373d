// Warnings that say which tools are meant: a duplicate name names both tools' origins, an unknown
// disableTools name is reported with the closest real name.
import { describe, expect, it } from 'vitest'
import { didYouMean, listNames } from '../../src/shared/did-you-mean.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'

const named = (name: string) => defineTool({ name, description: name, execute: () => name })

function recording() {
  const warnings: string[] = []
  return { warnings, logger: { warn: (message: string) => warnings.push(message) } }
}

describe('toolkit warnings', () => {
  it('a duplicate name: both tools, by where each came from', async () => {
    const { warnings, logger } = recording()
    const toolkit = await createToolkit({ tools: [named('ping'), named('pong'), named('ping')], logger })
    expect(warnings).toEqual([
      'Duplicate tool name "ping": kept the native tool tools[0], dropped the native tool tools[2].',
    ])
    toolkit.register(named('pong'))
    expect(warnings[1]).toBe(
      'Duplicate tool name "pong": kept the native tool tools[1], dropped the native tool register().',
    )
  })

  it('a disableTools name no tool has: the closest real name, or the names there are', async () => {
    const { warnings, logger } = recording()
    const toolkit = await createToolkit({
      tools: [named('get_weather'), named('ping')],
      disableTools: ['get_wether', 'nothing_like_it', 'ping'],
      logger,
    })
    expect(toolkit.tools().map((tool) => tool.name)).toEqual(['get_weather'])
    expect(warnings).toEqual([
      'disableTools names "get_wether", which no tool has. Did you mean "get_weather"?',
      'disableTools names "nothing_like_it", which no tool has. The tools are "get_weather", "ping".',
    ])
  })

  it('no warning when every disabled name exists', async () => {
    const { warnings, logger } = recording()
    await createToolkit({ tools: [named('ping')], disableTools: ['ping'], logger })
    expect(warnings).toEqual([])
  })
})

describe('didYouMean', () => {
  it.each([
    ['comand', ['command', 'args'], 'command'],
    ['ecoh', ['echo', 'add'], 'echo'],
    ['timout', ['timeout', 'tools'], 'timeout'],
    ['env', ['url', 'cwd'], undefined],
    ['xyz', ['command'], undefined],
    ['command', ['command'], undefined],
  ])('%s among %j → %s', (name, candidates, expected) => {
    expect(didYouMean(name, candidates)).toBe(expected)
  })

  it('lists names with a cut', () => {
    expect(listNames(['a', 'b', 'c'], 2)).toBe('"a", "b" and 1 more')
    expect(listNames([])).toBe('(none)')
  })
})
