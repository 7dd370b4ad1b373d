/**
 * The base of every error toolnexus throws. Each class carries a `Symbol.for('toolnexus.error.<Name>')`
 * marker, so that `isInstance` works even when an ESM and a CJS copy of the package meet in one process,
 * where `instanceof` fails. Every error keeps what caused it as `cause`.
 *
 * @example
 * try { await createToolkit({ mcpConfig: 'missing.json' }) }
 * catch (error) { if (ConfigError.isInstance(error)) console.error(error.message) }
 */
export class ToolnexusError extends Error {
  protected static readonly marker: symbol = Symbol.for('toolnexus.error.ToolnexusError')

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
    // Mark the instance with the marker of its class and of every toolnexus class above it.
    for (let type: unknown = new.target; typeof type === 'function' && type !== Error; ) {
      const marker = (type as typeof ToolnexusError).marker
      Object.defineProperty(this, marker, { value: true, enumerable: false })
      type = Object.getPrototypeOf(type)
    }
  }

  /** True for an error of this class (or a subclass), from any copy of the package. */
  static isInstance<T extends typeof ToolnexusError>(this: T, error: unknown): error is InstanceType<T> {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class called, so each checks its own marker.
    const marker = this.marker
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true
  }
}

/**
 * A tool that cannot be represented: a bad name, a schema whose root is not an object, a schema that
 * cannot be turned into JSON Schema. Thrown when the tool is defined, never when it runs.
 */
export class ToolDefinitionError extends ToolnexusError {
  protected static override readonly marker: symbol = Symbol.for('toolnexus.error.ToolDefinitionError')
}

/**
 * Wrong configuration (an `mcp.json`, a skills folder, client or handler options). The message says what
 * to change; `file` and `field` say where, when there is a file or a single field to point at.
 *
 * @example
 * try { await createToolkit({ mcpConfig: './mcp.json' }) }
 * catch (error) { if (ConfigError.isInstance(error)) console.error(error.file, error.field, error.message) }
 */
export class ConfigError extends ToolnexusError {
  protected static override readonly marker: symbol = Symbol.for('toolnexus.error.ConfigError')
  /** The configuration file at fault (an `mcp.json`'s absolute path), when the configuration came from one. */
  readonly file: string | undefined
  /** The option or config key at fault, as a path: `'maxTurns'`, `'mcpServers'`. */
  readonly field: string | undefined

  constructor(message: string, options: { cause?: unknown; file?: string; field?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.file = options.file
    this.field = options.field
  }
}

/**
 * A model call that failed for good (after retries), with the provider's error as `cause`.
 *
 * @example
 * try { await client.run('Hi') }
 * catch (error) { if (ModelCallError.isInstance(error) && error.statusCode === 401) console.error('check the API key') }
 */
export class ModelCallError extends ToolnexusError {
  protected static override readonly marker: symbol = Symbol.for('toolnexus.error.ModelCallError')
  /** The provider's HTTP status of the last attempt (`429`, `500`, …); undefined when there was no answer. */
  readonly statusCode: number | undefined
  /** Model calls made for this turn, the first one included (`1` + the retries). */
  readonly attempts: number

  constructor(message: string, options: { cause?: unknown; statusCode?: number; attempts?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.statusCode = options.statusCode
    this.attempts = options.attempts ?? 1
  }
}

/**
 * Why a run was aborted: its `signal` (`'aborted'`), its `timeoutMs` (`'timeout'`), or its stream was
 * closed before the run finished (`'stream-closed'`: the caller stopped reading).
 */
export type AbortReason = 'aborted' | 'timeout' | 'stream-closed'

/**
 * The run was aborted by its `signal` or its `timeoutMs`. `name` is `'AbortError'`, like the DOM's, so
 * code that checks `error.name === 'AbortError'` keeps working; `reason` tells the cases apart.
 *
 * @example
 * try { await client.run('Summarize', { toolkit, signal }) }
 * catch (error) { if (AbortError.isInstance(error) && error.reason === 'timeout') console.error('too slow') }
 */
export class AbortError extends ToolnexusError {
  protected static override readonly marker: symbol = Symbol.for('toolnexus.error.AbortError')
  /** What stopped the run. */
  readonly reason: AbortReason
  /** The run's `timeoutMs`, when `reason` is `'timeout'`. */
  readonly timeoutMs: number | undefined

  constructor(
    message = 'The run was aborted.',
    options: { cause?: unknown; reason?: AbortReason; timeoutMs?: number } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'AbortError'
    this.reason = options.reason ?? 'aborted'
    this.timeoutMs = options.timeoutMs
  }
}

/**
 * A conversation store that could not do its work: the database is down or refused the request, or a
 * conversation kept changing under every save. A save is written whole or not at all. The message names the store, the
 * operation and the conversation id, never the connection URL or a password; the driver's error is the
 * `cause`.
 *
 * @example
 * try { await client.ask('Hi', { id: 'user-1' }) }
 * catch (error) { if (StoreError.isInstance(error)) console.error(error.operation, error.message) }
 */
export class StoreError extends ToolnexusError {
  protected static override readonly marker: symbol = Symbol.for('toolnexus.error.StoreError')
  /** What failed: `'connect'`, `'load'`, `'save'` or `'delete'`. */
  readonly operation: StoreOperation

  constructor(message: string, options: { operation: StoreOperation; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.operation = options.operation
  }
}

/** The store operations a `StoreError` can name. */
export type StoreOperation = 'connect' | 'load' | 'save' | 'delete' | 'claim'

/** Why a resume was refused. */
export type ApprovalErrorCode =
  /** Not a run state toolnexus made (or made by a newer version), or one for the other transport. */
  | 'invalid-state'
  /** The state was changed after it was made, its signature does not match, or it is unsigned where a signature is required. */
  | 'altered-state'
  /** An answer is malformed (no `approvalId`, `approved` not a boolean, the same id twice). */
  | 'invalid-approval'
  /** An answer for a run that was answered already (here, on another instance, or before a restart). */
  | 'replayed-approval'
  /** An answer that came after the run's `approvalTtlSeconds`. */
  | 'expired-approval'
  /** A run that could not wait: the process's guard (no `claims` store) holds as many runs as it keeps. */
  | 'guard-full'
  /** An answer for a call this state is not waiting on (another call, another run). */
  | 'unknown-approval'

/**
 * A resume that was refused: the run state or an approval was altered, replayed, expired, or is for
 * another call. Nothing ran. `code` says which check failed.
 *
 * @example
 * try { await client.resume(state, { toolkit, approvals }) }
 * catch (error) { if (ApprovalError.isInstance(error)) console.error(error.code, error.message) }
 */
export class ApprovalError extends ToolnexusError {
  protected static override readonly marker: symbol = Symbol.for('toolnexus.error.ApprovalError')

  /** Which check refused the resume. */
  readonly code: ApprovalErrorCode

  constructor(message: string, options: { code: ApprovalErrorCode; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = options.code
  }
}

/**
 * An MCP request the toolkit made for you (list or read resources, list or get prompts) that failed: the
 * server is unavailable, closed, timed out or answered with an error. The message names the server and
 * the method, never a secret of its config.
 *
 * @example
 * try { await tk.readResource('docs', 'file:///missing') }
 * catch (error) { if (McpRequestError.isInstance(error)) console.error(error.server, error.method, error.message) }
 */
export class McpRequestError extends ToolnexusError {
  protected static override readonly marker: symbol = Symbol.for('toolnexus.error.McpRequestError')
  /** The server's name in the config. */
  readonly server: string
  /** The MCP method, e.g. `'resources/read'`. */
  readonly method: string

  constructor(message: string, options: { server: string; method: string; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.server = options.server
    this.method = options.method
  }
}

/**
 * A toolnexus tool's error result, inside the AI SDK. `toAISDK` throws it from `execute` so that the AI SDK
 * records a `tool-error`: the model receives `{ type: 'error-text', value: message }` and the UI an
 * `output-error` part, exactly as for any AI SDK tool that fails. The message is the result's `output`.
 *
 * @example
 * const result = await generateText({ model, tools: toAISDK(tools), prompt })
 * const failed = result.steps.flatMap((step) => step.content).filter((part) => part.type === 'tool-error')
 * failed.filter((part) => ToolResultError.isInstance(part.error)) // the tools' own error results
 */
export class ToolResultError extends ToolnexusError {
  protected static override readonly marker: symbol = Symbol.for('toolnexus.error.ToolResultError')

  /** The failed result's metadata, when it had some. */
  readonly metadata: Record<string, unknown> | undefined

  constructor(message: string, metadata?: Record<string, unknown>) {
    super(message)
    this.metadata = metadata
  }

  /** The tool's own output, without a class-name prefix: the AI SDK sends `String(error)` to the model. */
  override toString(): string {
    return this.message
  }
}
