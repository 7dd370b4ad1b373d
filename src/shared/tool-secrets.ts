// Keyed by the tool's `execute`, which a copy of the tool (`{ ...tool, name }`) keeps.
const secretsByExecute = new WeakMap<object, () => readonly string[]>()

/** A tool as this file reads it: by its `execute` alone (so that shared/ needs nothing of tool/). */
interface ToolWithExecute {
  readonly execute: object
}

/**
 * Records the secrets a tool was configured with (an HTTP tool's header values), read each time they are
 * asked for, so a rotated token is known too. Any toolkit holding the tool masks them in its telemetry.
 *
 * @example
 * registerToolSecrets(tool, () => headerSecrets(plan.headers, processEnvironment()))
 */
export function registerToolSecrets(tool: ToolWithExecute, secrets: () => readonly string[]): void {
  secretsByExecute.set(tool.execute, secrets)
}

/**
 * The secrets a tool was configured with; none for a tool that registered none.
 *
 * @example
 * toolSecretsOf(httpTool(spec)) // ['Bearer t0k3n', 't0k3n']
 */
export function toolSecretsOf(tool: ToolWithExecute): readonly string[] {
  const execute = tool?.execute
  if (typeof execute !== 'function') return []
  return secretsByExecute.get(execute)?.() ?? []
}
