import type { Toolkit } from '../../src/toolkit/toolkit.js'

/** Members to put in place of the wrapped toolkit's; `undefined` removes one. */
export type ToolkitOverrides = { [Key in keyof Toolkit]?: Toolkit[Key] | undefined }

/**
 * A Toolkit made outside toolnexus, as a user's wrapper is (one that logs, or adds its own approval
 * rule): every member of `inner`, bound to it, with `overrides` in its place. An override set to
 * `undefined` removes that member (a toolkit without `checkCall`).
 *
 * @example
 * const custom = wrappedToolkit(toolkit, { needsApproval: () => true, checkCall: undefined })
 */
export function wrappedToolkit(inner: Toolkit, overrides: ToolkitOverrides): Toolkit {
  return new Proxy(inner, {
    get(target, key) {
      if (Object.hasOwn(overrides, key)) return overrides[key as keyof Toolkit]
      const value: unknown = Reflect.get(target, key, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
