import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as source from '../../src/errors.js'
import { buildDist, removeDist } from '../support/build-dist.js'

type ErrorsModule = typeof source

let esm: ErrorsModule
let cjs: ErrorsModule
let outDir = ''

beforeAll(async () => {
  outDir = await buildDist()
  esm = await import(pathToFileURL(join(outDir, 'index.js')).href)
  cjs = createRequire(import.meta.url)(join(outDir, 'index.cjs'))
}, 120_000)

afterAll(async () => {
  if (outDir !== '') await removeDist(outDir)
})

const names = [
  'ToolnexusError',
  'ToolDefinitionError',
  'ConfigError',
  'ModelCallError',
  'AbortError',
] as const

describe('branded errors', () => {
  it('the ESM and the CJS build are two copies: instanceof fails across them', () => {
    expect(esm.ConfigError).not.toBe(cjs.ConfigError)
    expect(new cjs.ConfigError('x') instanceof esm.ConfigError).toBe(false)
  })

  it.each(names)('%s.isInstance recognises an error from the other copy, both ways', (name) => {
    const fromCjs = new cjs[name]('from cjs')
    const fromEsm = new esm[name]('from esm')
    expect(esm[name].isInstance(fromCjs)).toBe(true)
    expect(cjs[name].isInstance(fromEsm)).toBe(true)
    expect(esm.ToolnexusError.isInstance(fromCjs)).toBe(true)
  })

  it.each([
    { error: 'ToolDefinitionError', notA: 'ConfigError' },
    { error: 'ConfigError', notA: 'AbortError' },
    { error: 'ToolnexusError', notA: 'ModelCallError' },
  ] as const)('a $error is not a $notA', ({ error, notA }) => {
    expect(esm[notA].isInstance(new cjs[error]('x'))).toBe(false)
  })

  it('plain errors and look-alikes are not toolnexus errors', () => {
    expect(esm.ToolnexusError.isInstance(new Error('x'))).toBe(false)
    expect(esm.ToolnexusError.isInstance({ name: 'ToolnexusError', message: 'x' })).toBe(false)
    expect(esm.ToolnexusError.isInstance(null)).toBe(false)
    expect(esm.ToolnexusError.isInstance('ToolnexusError')).toBe(false)
  })

  it('each error keeps its cause and says its own name; AbortError is named like the DOM’s', () => {
    const cause = new Error('socket hang up')
    const error = new cjs.ModelCallError('model call failed', { cause })
    expect(error.cause).toBe(cause)
    expect(error.name).toBe('ModelCallError')
    expect(error.message).toBe('model call failed')
    const aborted = new esm.AbortError()
    expect(aborted.name).toBe('AbortError')
    expect(aborted.message).toBe('The run was aborted.')
  })

  it('the source classes behave the same as the built ones', () => {
    expect(source.ConfigError.isInstance(new cjs.ConfigError('x'))).toBe(true)
    expect(cjs.ConfigError.isInstance(new source.ConfigError('x'))).toBe(true)
  })
})
